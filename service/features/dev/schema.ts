/** The development endpoints' bodies (development mode only). */
import { z } from 'zod';
import { named } from '../../http/openapi.ts';
import { isoTime } from '../../http/schema.ts';

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
      }),
    ),
  }),
);

export const ResetResponse = named('DevResetResponse', z.object({ ok: z.literal(true), seeded_at: isoTime() }));
