/**
 * The REST API of the specification. `user.id`, `companies[].id` (what a client sends in
 * `X-SERVICE-COMPANY`), `app.application_id` and `app.company_id` are integers.
 */
import { z } from 'zod';
import { apiEmail, pin } from './fields.ts';
import { named } from './registry.ts';
import { MessageResponse, isoTime } from './common.ts';
import { Class, Course } from './catalog.ts';
import { WidgetType } from './widget-keys.ts';

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

const id = (example: number) =>
  z
    .int()
    .min(1)
    .meta({ examples: [example] });

export const LoginRequest = named(
  'LoginRequest',
  z
    .strictObject({
      login: apiEmail('login', 'Send login: the email address of the user.'),
      verification_method: z.enum(['email', 'client_secret'], {
        error: 'Send verification_method: "email" (a link and a PIN by email) or "client_secret".',
      }),
      client_secret: z
        .string({ error: 'Send client_secret (the client secret of your application) with verification_method "client_secret".' })
        .max(200, 'This is not the client secret of your application: check client_secret.')
        .optional()
        .meta({ description: 'With verification_method `client_secret` only', examples: ['cs_3vQm…'] }),
    })
    .meta({ description: '`client_secret` is required with `verification_method: "client_secret"` and refused with `"email"`.' }),
);
export type LoginRequest = z.input<typeof LoginRequest>;

export const VerifyRequest = named(
  'VerifyRequest',
  z.strictObject({
    action: z.literal('validate_pin', { error: 'Send action: "validate_pin".' }),
    email: apiEmail('email', 'Send email: the address the PIN was sent to.'),
    pin: pin('Send pin: the 6 digits from the email, as a string (for example "042917").'),
  }),
);
export type VerifyRequest = z.input<typeof VerifyRequest>;

export { APP_API_KEY, APP_APPLICATION_ID, CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from './app.ts';

export const SessionRequest = named(
  'SessionRequest',
  z
    .strictObject({
      email: apiEmail('email', 'Send email: the address the PIN was sent to.').optional(),
      pin: pin('Send pin: the 6 digits from the email, as a string (for example "042917").').optional(),
      key: z
        .string({ error: 'Send key: the key parameter of the emailed sign-in link.' })
        .min(1, 'Send key: the key parameter of the emailed sign-in link.')
        .max(200, 'This is not the key of a sign-in link: copy the whole link from the email.')
        .optional(),
    })
    .meta({ description: 'Either `email` and `pin` (the PIN from the email) or `key` (the key of the emailed link).' }),
);
export type SessionRequest = z.input<typeof SessionRequest>;

export const TokenResponse = named('TokenResponse', z.object({ message: z.string(), token: z.string() }));
export type TokenResponse = z.output<typeof TokenResponse>;

/** The answer of `POST /v1/login`: a message (`email`) or the token (`client_secret`). */
export const LoginResponse = named('LoginResponse', z.union([MessageResponse, TokenResponse]));
export type LoginResponse = z.output<typeof LoginResponse>;

export const Role = named('Role', z.enum(['owner', 'member', 'lecturer']));
export type Role = z.output<typeof Role>;

export const CompanyRole = named(
  'CompanyRole',
  z.object({
    id: id(1).meta({ description: 'The company id: send it as X-SERVICE-COMPANY', examples: [1] }),
    name: z.string(),
    role: Role,
  }),
);
export type CompanyRole = z.output<typeof CompanyRole>;

export const UserResponse = named(
  'UserResponse',
  z.object({
    user_valid: z.boolean(),
    user: z.object({
      id: id(101),
      first_name: z.string(),
      last_name: z.string(),
      email: z.string().meta({ format: 'email' }),
      companies: z.array(CompanyRole),
    }),
    app: z.object({
      application_id: z
        .int()
        .min(0)
        .meta({ description: '0: the service’s own app (`/app/`)', examples: [201] }),
      company_id: id(1).nullable().meta({ description: 'null for the service’s own app, which no company owns' }),
      type: z.literal('application'),
    }),
  }),
);
export type UserResponse = z.output<typeof UserResponse>;

export const ClassParticipant = named(
  'ClassParticipant',
  z.object({
    registration_id: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string().meta({ format: 'email' }),
    phone: z.string().nullable(),
    status: z.enum(['confirmed', 'waitlisted', 'pending_payment']).meta({
      description:
        'pending_payment: a seat held for an order whose buyer is paying on the provider’s page (released if the payment does not come)',
    }),
    registered_at: isoTime(),
    order_id: z.string().nullable().meta({
      description:
        'The order this seat belongs to (the attendee’s name, the buyer’s email and phone), or null for a registration of its own',
    }),
  }),
);

export const RestClass = named(
  'RestClass',
  // The specification's class: the widget API's hint for visitors (`held_until`) is not part of it.
  Class.omit({ held_until: true }).extend({
    registrations: z.object({ confirmed: z.int().min(0), waitlisted: z.int().min(0) }),
    lecturers: z.array(z.object({ id: id(103), first_name: z.string(), last_name: z.string() })),
    participants: z.array(ClassParticipant).optional().meta({ description: 'Owners and the class’s lecturers only' }),
  }),
);
export type RestClass = z.output<typeof RestClass>;

export const CoursesResponse = named(
  'CoursesResponse',
  z.object({
    company: CompanyRole,
    courses: z.array(Course.extend({ classes: z.array(RestClass) })),
    pagination: z.object({
      page: z.int().min(1),
      per_page: z.int().min(1).max(PER_PAGE_MAX),
      total: z.int().min(0),
      total_pages: z.int().min(1),
    }),
  }),
);
export type CoursesResponse = z.output<typeof CoursesResponse>;

/**
 * What a widget may be configured with (`options`): its snippet's attributes (`locale`, and those of
 * its type, such as a calendar's `course` and `location`) and the service's own (a contact form's
 * `topics`, a map's `tiles`, a checkout's `terms`).
 */
export const WidgetOptions = z
  .record(z.string(), z.unknown(), { error: 'options is an object of the widget’s settings, such as {"locale": "de"}.' })
  .meta({
    description:
      'The widget’s configuration: the snippet’s attributes (`locale`: `en` or `de`; and those of its type, without `data-service-`: registration `course`; calendar `course`, `location`, `checkout-url`; checkout `classes`; video `video`; map `booking-url`; contact `prefill-*`), each a text (a calendar’s `checkout-url` and a map’s `booking-url` a page of your site: an http(s) address, or a path such as `/checkout`; any other is 422), and the service’s own: a contact form’s `topics` (a list of texts), a map’s `tiles` (`{ url, attribution }`), a checkout’s `terms` (the https address of the terms a buyer agrees to; without it the buyer agrees to the storing of their details only); and `theme`, the snippet’s colours (`{ "--service-accent": "#0b5fff" }`: the widget’s custom properties, each a colour).',
    examples: [{ locale: 'de', course: 'crs_web' }],
  });

export const WidgetResource = named(
  'WidgetResource',
  z.object({
    id: id(12),
    key: z.string().meta({ description: 'The widget API key: `data-service-id` of its placeholders', examples: ['wk_3q2…'] }),
    type: WidgetType,
    loader: z.enum(['v1', 'v2']).meta({ description: 'The loader its pages take: `{base_url}/widgets/{loader}/loader.js`' }),
    name: z.string().meta({ examples: ['Calendar on the home page'] }),
    origins: z.array(z.string()).meta({ examples: [['https://www.acme.example']] }),
    enabled: z.boolean(),
    options: WidgetOptions,
    created_at: isoTime().nullable(),
    previous_keys: z
      .array(z.object({ key: z.string(), valid_until: isoTime() }))
      .meta({ description: 'Keys rotated out of it that serve it still, until `valid_until` (then they answer `revoked`)' }),
  }),
);
export type WidgetResource = z.output<typeof WidgetResource>;

export const WidgetsResponse = named('WidgetsResponse', z.object({ widgets: z.array(WidgetResource) }));
export type WidgetsResponse = z.output<typeof WidgetsResponse>;

const widgetName = z
  .string({ error: 'name is the widget’s name, a text of 1 to 100 characters.' })
  .trim()
  .min(1, 'name is the widget’s name, a text of 1 to 100 characters.')
  .max(100, 'Shorten name to at most 100 characters.')
  .refine((name) => !/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(name), {
    error: 'name may hold no control characters and none that turn the writing direction around.',
  });
const widgetOrigins = z
  .array(z.unknown(), {
    error: 'origins is a list of the origins of the pages it shows on, such as ["https://www.acme.example"].',
  })
  .meta({
    description: 'The origins of the pages it shows on (1 to 20): `https://…`; in development also plain http on this machine',
  });

export const WidgetCreateRequest = named(
  'WidgetCreateRequest',
  z.strictObject({
    type: WidgetType,
    name: widgetName.optional().meta({ description: 'Default: its type ("Calendar")' }),
    origins: widgetOrigins,
    options: WidgetOptions.optional(),
  }),
);

export const WidgetUpdateRequest = named(
  'WidgetUpdateRequest',
  z
    .strictObject({
      name: widgetName.optional(),
      origins: widgetOrigins.optional().meta({ description: 'The whole list of origins it serves from now on' }),
      options: WidgetOptions.optional().meta({ description: 'The whole of its options from now on' }),
      enabled: z.boolean({ error: 'enabled is true or false.' }).optional(),
    })
    .meta({ description: 'What changes; what is left out stays' }),
);

export const TeamResponse = named(
  'TeamResponse',
  z.object({
    company: CompanyRole,
    team: z.array(z.object({ id: id(101), first_name: z.string(), last_name: z.string(), email: z.string(), role: Role })),
  }),
);
export type TeamResponse = z.output<typeof TeamResponse>;
