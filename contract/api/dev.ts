/** The development endpoints' bodies (development mode only). */
import { z } from 'zod';
import { named } from './registry.ts';
import { isoTime } from './common.ts';
import { WIDGET_TYPES, WidgetType } from './widget-keys.ts';

export const MAX_ADVANCE_S = 10 * 366 * 24 * 60 * 60;
const ADVANCE = `Send advance_s: a number of seconds from 0 to ${MAX_ADVANCE_S} (the clock only moves forward; POST /dev/reset puts it back).`;

export const ClockRequest = named(
  'DevClockRequest',
  z.strictObject({
    advance_s: z
      .number({ error: ADVANCE })
      .min(0, ADVANCE)
      .max(MAX_ADVANCE_S, ADVANCE)
      .meta({ examples: [300] }),
  }),
);
export const ClockResponse = named(
  'DevClockResponse',
  z.object({ now: isoTime(), offset_s: z.number().meta({ description: 'How far the service clock is ahead of real time' }) }),
);

export const InvalidateTokensRequest = named(
  'DevInvalidateTokensRequest',
  z
    .strictObject({
      token: z
        .string({ error: 'token must be a non-empty string.' })
        .min(1, 'token must be a non-empty string.')
        .max(200, 'This is no token: check token.')
        .optional()
        .meta({ examples: ['tok_…'] }),
      email: z
        .string({ error: 'email must be a non-empty string.' })
        .trim()
        .min(1, 'email must be a non-empty string.')
        .max(254, 'This is no email address: check email.')
        .optional()
        .meta({ examples: ['olivia.owner@acme.example'] }),
    })
    .meta({ description: 'Either `token` (one token) or `email` (every token of that person).' }),
);
export const InvalidateTokensResponse = named('DevInvalidateTokensResponse', z.object({ invalidated: z.int().min(0) }));

export const MAX_LINK_LENGTH = 2000;
const LINK_RULE = `an absolute http:// or https:// URL of at most ${MAX_LINK_LENGTH} characters, like "https://intranet.example/sign-in" (the service adds key=<token>)`;

export const LoginLinkRequest = named(
  'DevLoginLinkRequest',
  z.strictObject({
    application_id: z
      .int({ error: 'Send application_id: the id of a REST application (GET /dev/login-links lists them).' })
      .meta({ examples: [201] }),
    login_link: z
      .string({
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? `Send login_link: ${LINK_RULE}.`
            : `login_link must be ${LINK_RULE}.`,
      })
      .min(1, `Send login_link: ${LINK_RULE}.`)
      .max(MAX_LINK_LENGTH, `login_link must be ${LINK_RULE}.`)
      .superRefine((value, ctx) => {
        let url: URL | undefined;
        try {
          url = /[\s\u0000-\u001f\u007f]/.test(value) ? undefined : new URL(value);
        } catch {
          url = undefined;
        }
        if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
          ctx.addIssue({ code: 'custom', message: `login_link must be ${LINK_RULE}.` });
        } else if (url.username !== '' || url.password !== '') {
          ctx.addIssue({ code: 'custom', message: 'Remove the user name and password from login_link.' });
        }
      })
      .transform((value) => (URL.canParse(value) ? new URL(value).href : value))
      .meta({ format: 'uri', examples: ['https://intranet.example/sign-in'] }),
  }),
);

export const LoginLink = z.object({ application_id: z.int(), name: z.string(), login_link: z.string() });
export const LoginLinksResponse = named('DevLoginLinksResponse', z.object({ applications: z.array(LoginLink) }));
export const LoginLinkResponse = named('DevLoginLink', LoginLink);

export const OutboxResponse = named(
  'DevOutboxResponse',
  z.object({
    emails: z.array(
      z.object({
        id: z.int(),
        to: z.string(),
        subject: z.string(),
        text: z.string(),
        link: z.string().nullable(),
        pin: z.string().nullable(),
        sent_at: isoTime(),
        /** queued: waits for the mail worker; sent: handed to the SMTP server; failed: given up; outbox: kept here only (no SMTP_URL). */
        status: z.enum(['queued', 'sent', 'failed', 'outbox']),
        /** The language it is written in. */
        locale: z.enum(['en', 'de']),
        /** Tries to hand it to the SMTP server so far, and the server's last refusal. */
        attempts: z.int(),
        last_error: z.string().nullable(),
      }),
    ),
  }),
);

export type OutboxResponse = z.output<typeof OutboxResponse>;

export const ResetResponse = named('DevResetResponse', z.object({ ok: z.literal(true), seeded_at: isoTime() }));

export const MAX_KEY_ORIGINS = 20;
const ORIGIN_RULE =
  'an origin such as "https://staging.acme.example" or "http://localhost:3000" (scheme, host, and a port unless it is the default; no path), or "http://localhost:*" for any port of one host';

/**
 * An origin pattern a widget key serves, in the form the service compares (`core/origins.ts`): an
 * exact origin, or one host with any port (`:*`). `*` (any page) is refused: that is what origins
 * are for. Host names are lower-cased and default ports dropped: `https://Acme.example:443` →
 * `https://acme.example`.
 */
const originPattern = (secureOnly: boolean) =>
  z
    .string({ error: `Each origin must be ${ORIGIN_RULE}.` })
    .max(200, `Each origin must be ${ORIGIN_RULE}, of at most 200 characters.`)
    .transform((value, ctx) => {
      const anyPort = value.endsWith(':*');
      const base = anyPort ? value.slice(0, -2) : value;
      let url: URL | undefined;
      try {
        url = /[\s\u0000-\u001f\u007f]/.test(value) ? undefined : new URL(base);
      } catch {
        url = undefined;
      }
      if (value.trim() === '*') {
        ctx.addIssue({ code: 'custom', message: `"*" would let any site use the key: name the origin, ${ORIGIN_RULE}.` });
      } else if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !/^https?:\/\//i.test(base)) {
        ctx.addIssue({ code: 'custom', message: `"${value.slice(0, 60)}" is no origin: send ${ORIGIN_RULE}.` });
      } else if (url.hostname.includes('*')) {
        ctx.addIssue({
          code: 'custom',
          message: `A key serves named hosts, not a pattern of them: name each one, such as ${url.protocol}//www.${url.hostname.replace(/^(\*\.)+/, '').replace(/\*/g, 'x')}.`,
        });
      } else if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || /[?#]$/.test(base)) {
        ctx.addIssue({
          code: 'custom',
          message: `An origin has no path, query or user: send ${url.protocol}//${url.host}${anyPort ? ':*' : ''}.`,
        });
      } else if (
        secureOnly &&
        url.protocol === 'http:' &&
        !/^(localhost|.+\.localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname)
      ) {
        // The loader shows widgets on secure pages only (isSecureContext): a plain-http page elsewhere never would.
        ctx.addIssue({
          code: 'custom',
          message: `A page on ${url.protocol}//${url.host} is not a secure page, and the widgets show on none: send https://${url.host}${anyPort ? ':*' : ''} (plain http works on this machine only, such as http://localhost:3000).`,
        });
      } else if (anyPort && url.port) {
        ctx.addIssue({
          code: 'custom',
          message: `Name a port or "*", not both: send ${url.origin} or ${url.protocol}//${url.hostname}:*.`,
        });
      } else return anyPort ? `${url.protocol}//${url.hostname}:*` : url.origin;
      return z.NEVER;
    })
    .meta({ examples: ['https://staging.acme.example'] });

/** An origin a key may be let serve: a page there can show widgets (https, or http on this machine). */
export const OriginPattern = originPattern(true);
/** Any page's origin, for a check of what a page there would be told. */
export const PageOrigin = originPattern(false);

export const WidgetKeyRequest = named(
  'DevWidgetKeyRequest',
  z
    .strictObject({
      key: z
        .string({ error: 'key must be the widget key to add origins to (GET /dev/widget-keys lists them), or left out.' })
        .min(1, 'key must be the widget key to add origins to (GET /dev/widget-keys lists them), or left out.')
        .max(200, 'This is no widget key: check key (GET /dev/widget-keys lists them).')
        .optional()
        .meta({
          description: 'An existing key: `origins` are added to it. Leave it out to create a new key.',
          examples: ['wk_demo_registration'],
        }),
      type: z
        .enum(WIDGET_TYPES, { error: `type must be a widget type: one of ${WIDGET_TYPES.join(', ')}.` })
        .optional()
        .meta({
          description: 'The new key’s widget type (required without `key`; with `key`, it must be the key’s type)',
        }),
      company_id: z
        .int({ error: 'company_id must be the integer id of a company (GET /dev/seed lists them: 1 is Acme Academy).' })
        .optional()
        .meta({
          description: 'The new key’s company (default 1, Acme Academy); with `key`, it must be the key’s',
          examples: [1],
        }),
      origins: z
        .array(OriginPattern, { error: `Send origins: a list of 1 to ${MAX_KEY_ORIGINS} origins, each ${ORIGIN_RULE}.` })
        .min(1, `Send origins: a list of 1 to ${MAX_KEY_ORIGINS} origins, each ${ORIGIN_RULE}.`)
        .max(MAX_KEY_ORIGINS, `Send at most ${MAX_KEY_ORIGINS} origins at once.`)
        .meta({
          description: 'The page origins the key serves (added to those it serves already)',
          examples: [['https://staging.acme.example']],
        }),
    })
    .meta({
      description:
        'Either `key` (origins are added to that key) or `type` (a new key of that type is created for `company_id`, serving `origins`).',
    }),
);

export const WidgetKeyInfo = named(
  'DevWidgetKey',
  z.object({
    key: z.string(),
    type: WidgetType,
    company_id: z.int(),
    origins: z.array(z.string()).meta({ description: 'The origin patterns the key serves (`*` any, `:*` any port)' }),
    enabled: z.boolean(),
    revoked: z.boolean(),
    note: z.string(),
  }),
);
export const WidgetKeysResponse = named('DevWidgetKeysResponse', z.object({ widget_keys: z.array(WidgetKeyInfo) }));
export type WidgetKeysResponse = z.output<typeof WidgetKeysResponse>;

export const WidgetKeyCheckResponse = named(
  'DevWidgetKeyCheck',
  z.object({
    ok: z.boolean().meta({ description: 'Whether a widget of `type` with this key would show on a page of `origin`' }),
    error: z
      .object({
        code: z.enum(['missing-key', 'invalid-key', 'revoked', 'origin-not-allowed', 'type-mismatch', 'not-available']),
        message: z.string().meta({ description: 'What the widget API answers, the owner’s fix-it line the loader reports' }),
      })
      .nullable(),
  }),
);
export type WidgetKeyCheckResponse = z.output<typeof WidgetKeyCheckResponse>;

interface SeedPerson {
  email: string;
  role: 'owner' | 'member' | 'lecturer';
  company_id: number;
  id: number;
  first_name: string;
  last_name: string;
  note: string;
}

/**
 * What `GET /dev/seed` answers (development only): the seeded credentials and data, for the demo and
 * the tests. The service's seed document is checked against it by the type checker.
 */
export interface SeedDocument {
  rest: { api_key: string; client_secret: string; application_id: number; company_id: number };
  users: SeedPerson[];
  participants: {
    email: string;
    company_id: number;
    id: string;
    first_name: string;
    last_name: string;
    phone: string | null;
    profile_key: string | undefined;
    registrations: { id: string; class_id: string; status: 'confirmed' | 'waitlisted' }[];
    note: string;
  }[];
  widget_keys: {
    key: string;
    type: z.output<typeof WidgetType>;
    company_id: number;
    origins: string[];
    enabled: boolean;
    revoked: boolean;
    note: string;
    options: Record<string, unknown>;
  }[];
  companies: readonly {
    id: number;
    public_id: string;
    name: string;
    contact_email: string;
    vat_rate_bp: number;
    prices_include_tax: 0 | 1;
    currency: string;
    order_prefix: string;
  }[];
  widget_types: Record<string, string>;
  applications: {
    application_id: number;
    name: string;
    company_id: number;
    companies: readonly number[];
    api_key: string;
    client_secret: string;
    login_link: string;
  }[];
  invalid_users: SeedPerson[];
  classes: Record<string, string>;
  vouchers: {
    id: string;
    company_id: number;
    code: string;
    percent: number | null;
    amount: number | null;
    currency: string | null;
    course_id: string | null;
    expires_day: number | null;
    max_uses: number | null;
    uses: number;
    note: string;
  }[];
  course_without_classes: string;
  videos: {
    id: string;
    company_id: number;
    title: string;
    course_id: string | null;
    duration_s: number;
    access: 'public' | 'participants';
    captions: string[];
  }[];
  places: { id: string; company_id: number; name: string; address: string | null; lat: number | null; lng: number | null }[];
  seeded_at: string;
  now: string;
}
