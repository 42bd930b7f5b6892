/**
 * The OpenAPI 3.1 document of both APIs, served at `GET /openapi.json`. It is written by hand
 * next to the code it describes; `test/openapi.test.ts` checks that every operation in it exists
 * in the service and that every reference resolves.
 */
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from './rest-api.ts';
import { LINK_TTL_MS } from './auth.ts';
import { MAX_BODY_BYTES, MAX_BODY_DEPTH } from './body.ts';
import { CONTACT_LIMITS, CONTACT_MIN_FILL_MS } from './contact.ts';
import { CANCEL_BEFORE_MS, EMAIL_CHANGE_TTL_MS, PARTICIPANT_TOKEN_TTL_MS } from './participants.ts';
import { DEFAULT_LIMITS } from './rate-limit.ts';
import { WIDGET_TYPES } from './seed.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json(ref('Error')) });
const r = (name: string) => ({ $ref: `#/components/responses/${name}` });
const minutes = (ms: number) => ms / 60000;

const isoTime = { type: 'string', format: 'date-time', examples: ['2026-12-01T09:00:00.000Z'] };
const W = '/widget-api/v1';

/** The refusals every widget API write shares. */
const widgetWriteErrors = {
  '400': errorResponse('`missing-key`, `missing-idempotency-key`, `bad-json`'),
  '401': errorResponse('`invalid-key`'),
  '403': errorResponse('`origin-not-allowed`, `type-mismatch`, `not-available`'),
  '413': r('PayloadTooLarge'),
  '415': r('UnsupportedMediaType'),
  '422': r('Validation'),
};
/** The refusals of a participant call: the key's, then 401 for a token the service does not know. */
const tokenErrors = {
  '400': errorResponse('`missing-key`; `missing-idempotency-key` where an `Idempotency-Key` is required'),
  '401': errorResponse('`invalid-key`; `invalid-token`: no token, or one the service does not know (signed out, expired, invalidated, another company’s): sign in again'),
  '403': errorResponse('`origin-not-allowed`, `not-available`'),
};
const replayedHeaders = {
  'Idempotent-Replayed': { description: 'Always `true` here', schema: { type: 'string', const: 'true' } },
};
const idempotencyKey = { $ref: '#/components/parameters/IdempotencyKey' };

export function openApiDocument(serverUrl: string) {
  const L = DEFAULT_LIMITS;
  const per = (rule: { max: number; windowMs: number }) => `${rule.max} in ${minutes(rule.windowMs)} minutes`;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Service widgets: REST API and widget API',
      version: '1.0.0',
      description: [
        'The REST API of the service (`/v1/*`) and the public widget API the embedded widgets use (`/widget-api/v1/*`).',
        '',
        '**Who calls which.** The REST API is for servers and same-origin tools (a back office, a script, a page served by the service itself): it answers no CORS, so a browser page on another origin cannot call it (a preflight answers 405). Its API key and client secret identify the application: keep them on your server and never ship them to browsers. Pages embed the widgets, which use the widget API: its key is public by nature and its CORS follows the origins the key serves.',
        '',
        '**Errors.** Every error, of either API, has one body: `{ "error": { "code", "message", "fields"? } }`.',
        '`message` says how to fix the problem; `fields` maps a body field (or query parameter) to its own message and appears only when a field is at fault.',
        '',
        `**Bodies.** JSON only (\`Content-Type: application/json\`, else 415), at most ${MAX_BODY_BYTES} bytes (else 413, whatever \`Content-Length\` says), an object nested at most ${MAX_BODY_DEPTH} levels deep (else 400 \`bad-json\`), arriving within 10 seconds (else 408 \`request-timeout\`); unknown fields are refused (422), \`__proto__\` too.`,
        '',
        `**Tokens.** \`POST /v1/login\` or \`POST /v1/verify\` give a user token: opaque, 256 random bits, stored by the service only as a hash, long-lived. The token in an emailed link must be used within ${minutes(LINK_TTL_MS)} minutes of the service clock (else 401); its first use makes it long-lived like the others. The service may invalidate a token at any time; every call with it then answers 401 and the client logs in again. There is no refresh call.`,
        '',
        '**Links.** Every link the service builds (the emailed sign-in link, this document’s server) starts from its configured public URL (`PUBLIC_URL`), or from the page the application or the widget names; never from a request’s `Host` header.',
        '',
        `**Rate limits** (the defaults; a deployment may set others). Logins, \`POST /v1/login\` and \`${W}/participant/login\`: ${L.login.perEmail.max} per email and ${L.login.perAddress.max} per client address in ${minutes(L.login.perEmail.windowMs)} minutes. \`POST /v1/verify\`: ${L.verify.perEmail.max} per email and ${L.verify.perAddress.max} per client address in ${minutes(L.verify.perEmail.windowMs)} minutes. Registrations: ${per(L.registration.perAddress)} per client address, ${per(L.registration.perKey)} per widget key (a replay of the same submission is not counted). Contact messages: ${per(L.contact.perAddress)} per client address, ${per(L.contact.perKey)} per widget key. Changes of a participant’s email: ${per(L.emailChange.perParticipant)} per participant and per new address. Beyond them: 429 \`rate-limited\` with \`Retry-After\` (seconds) and \`retry_after\` (the same, in the error object). Confirmation emails of registrations to one address: at most ${per(L.confirmationEmail.perRecipient)}; beyond that the registration is made and no email is sent. The client address is the connection’s, or, only behind a proxy the service is configured to trust (\`TRUST_PROXY\`), the one \`X-Forwarded-For\` names.`,
        '',
        `**Pagination.** \`GET /v1/courses\` takes \`page\` (from 1) and \`per_page\` (1–${PER_PAGE_MAX}, default ${PER_PAGE_DEFAULT}) and answers \`pagination: { page, per_page, total, total_pages }\` beside the list.`,
        '',
        `**Participants.** The profile widget signs participants in without a password: \`POST ${W}/participant/login\` emails a 6-digit PIN (5 minutes of the service clock, once, 5 tries; a new login replaces it) and a link to \`return_url\` whose \`key\` parameter is a token (to be used within ${minutes(LINK_TTL_MS)} minutes); \`POST ${W}/participant/verify\` exchanges the PIN for a token. The token travels in the \`X-Service-Token\` header of POST calls (never in a URL), belongs to the participant's company, and lives ${PARTICIPANT_TOKEN_TTL_MS / 86_400_000} days unless logged out or invalidated; any call with a token the service does not know answers 401 \`invalid-token\`. Logins are answered alike, and in the same time, whether or not the email belongs to a participant: the email goes out after the answer.`,
        '',
        '**Roles.** In `GET /v1/courses` an owner sees every programme and class with who booked them; a member every programme and class with numbers only; a lecturer only the classes they are assigned to (and only programmes that have one), with who booked them.',
      ].join('\n'),
    },
    servers: [{ url: serverUrl, description: 'This service' }],
    tags: [
      { name: 'REST API', description: 'For company users and their tools, from servers and same-origin pages only (no CORS; never ship the API key to a browser): API key, then a user token.' },
      { name: 'Widget API', description: 'For the embedded widgets: the public widget key only.' },
    ],
    paths: {
      '/v1/login': {
        post: {
          tags: ['REST API'],
          operationId: 'login',
          summary: 'Log a user in, by emailed link and PIN or by client secret',
          description:
            '`email`: the user is emailed a link whose `key` query parameter is a token, and a 6-digit PIN (valid 5 minutes, once, 5 tries; a new login replaces it). The link opens the page the application names (default: the demo’s sign-in page; in development mode `POST /dev/login-links` sets it, an absolute http(s) URL). The answer is the same whether or not the email belongs to a user. `client_secret`: the token in the answer, for server-to-server use.',
          security: [{ apiKey: [] }],
          requestBody: { required: true, content: json(ref('LoginRequest')) },
          responses: {
            '200': {
              description: 'Email sent (`email`), or the token (`client_secret`)',
              content: json({ oneOf: [ref('Message'), ref('TokenResponse')] }),
            },
            '400': r('BadRequest'),
            '401': errorResponse('`missing-api-key`, `invalid-api-key` (also for a widget key), `invalid-credentials`'),
            '413': r('PayloadTooLarge'),
            '415': r('UnsupportedMediaType'),
            '422': r('Validation'),
            '429': r('RateLimited'),
          },
        },
      },
      '/v1/verify': {
        post: {
          tags: ['REST API'],
          operationId: 'verifyPin',
          summary: 'Exchange the emailed PIN for a token',
          security: [{ apiKey: [] }],
          requestBody: { required: true, content: json(ref('VerifyRequest')) },
          responses: {
            '200': { description: 'The PIN was right', content: json(ref('TokenResponse')) },
            '400': r('BadRequest'),
            '401': errorResponse('`missing-api-key`, `invalid-api-key`, `invalid-pin` (wrong, used, expired, out of tries, or no PIN for this email)'),
            '413': r('PayloadTooLarge'),
            '415': r('UnsupportedMediaType'),
            '422': r('Validation'),
            '429': r('RateLimited'),
          },
        },
      },
      '/v1/user': {
        get: {
          tags: ['REST API'],
          operationId: 'user',
          summary: 'The logged-in user, their companies and roles, and the application',
          security: [{ apiKey: [], userToken: [] }],
          responses: {
            '200': { description: 'The user', content: json(ref('UserResponse')) },
            '401': r('Unauthorized'),
          },
        },
      },
      '/v1/courses': {
        get: {
          tags: ['REST API'],
          operationId: 'courses',
          summary: "The company's programmes with their classes, scoped to the user's role",
          security: [{ apiKey: [], userToken: [] }],
          parameters: [
            { $ref: '#/components/parameters/Company' },
            { $ref: '#/components/parameters/Page' },
            { $ref: '#/components/parameters/PerPage' },
          ],
          responses: {
            '200': { description: 'One page of programmes', content: json(ref('CoursesResponse')) },
            '400': errorResponse('`missing-company`: no X-SERVICE-COMPANY header'),
            '401': r('Unauthorized'),
            '403': errorResponse('`company-not-allowed`: the user holds no role in this company for this application'),
            '422': r('Validation'),
          },
        },
      },
      '/widget-api/v1/widget': {
        get: {
          tags: ['Widget API'],
          operationId: 'widget',
          summary: "A widget's whole first render in one request",
          description:
            'A CORS simple request (no preflight). Successful answers carry `Access-Control-Allow-Origin` only for origins the key allows; errors carry it for any origin. Only upcoming classes are listed, sorted by start; programmes by their next class; a programme without upcoming classes is listed with `classes: []`.',
          security: [{ widgetKey: [] }],
          parameters: [
            {
              name: 'type',
              in: 'query',
              required: true,
              description: 'The widget type the page asked for',
              schema: { type: 'string', enum: [...WIDGET_TYPES] },
            },
            {
              name: 'course',
              in: 'query',
              required: false,
              description: 'Limit the answer to one programme (`course-not-found` if unknown)',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': { description: 'The widget and its data', content: json(ref('WidgetResponse')) },
            '400': errorResponse('`missing-key`'),
            '401': errorResponse('`invalid-key`: unknown or revoked'),
            '403': errorResponse('`origin-not-allowed`, `type-mismatch`, `not-available`'),
            '404': errorResponse('`course-not-found`'),
            '422': r('Validation'),
          },
        },
      },
      '/widget-api/v1/registrations': {
        post: {
          tags: ['Widget API'],
          operationId: 'createRegistration',
          summary: 'Register a participant for a class (idempotent)',
          description:
            'One transaction decides the seat: concurrent registrations never overbook. A full class waitlists when its waitlist has room, else 409 `class-full` (for everyone, booked or not). An email that already holds a place in the class gets the answer a new registration would get (its existing registration’s id), no second record, and an email that says it was already registered: the answer tells nobody who is booked. The same `Idempotency-Key` with the same body answers the first registration again (200, `Idempotent-Replayed: true`); with another body 409 `idempotency-key-reused`. The participant is emailed a confirmation (at most 5 an hour to one address). Rate-limited per client address and per key.',
          security: [{ widgetKey: [] }],
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('RegistrationRequest')) },
          responses: {
            '201': { description: 'Registered', content: json(ref('RegistrationResponse')) },
            '200': {
              description: 'A replay of the same submission',
              headers: {
                'Idempotent-Replayed': { description: 'Always `true` here', schema: { type: 'string', const: 'true' } },
              },
              content: json(ref('RegistrationResponse')),
            },
            '400': errorResponse('`missing-key`, `missing-idempotency-key`, `bad-json`'),
            '401': errorResponse('`invalid-key`'),
            '403': errorResponse('`origin-not-allowed`, `type-mismatch`, `not-available`'),
            '409': errorResponse('`class-full`, `idempotency-key-reused`'),
            '413': r('PayloadTooLarge'),
            '415': r('UnsupportedMediaType'),
            '422': r('Validation'),
            '429': r('RateLimited'),
          },
        },
      },
      [`${W}/contact-messages`]: {
        post: {
          tags: ['Widget API'],
          operationId: 'createContactMessage',
          summary: 'Send the company a message (contact keys, idempotent)',
          description: `The company is emailed a notification. Spam protection needs no third party: a filled \`website\` honeypot is answered 201 like any message but kept as spam and notifies nobody; a form sent sooner than ${CONTACT_MIN_FILL_MS} ms (\`form.min_fill_ms\`) after its \`form.token\` was issued (service clock) is 422 \`too-fast\` with \`retry_after_ms\` (the widget sends it again then, so a quick person is never refused). A form token sends one message (409 \`form-token-used\` after); the answer carries the \`form\` of the next message. The same \`Idempotency-Key\` with the same body answers the first message again (200, \`Idempotent-Replayed: true\`). Rate-limited per client address and per key.`,
          security: [{ widgetKey: [] }],
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('ContactMessageRequest')) },
          responses: {
            '201': { description: 'Sent', content: json(ref('ContactMessageResponse')) },
            '200': { description: 'A replay of the same submission', headers: replayedHeaders, content: json(ref('ContactMessageResponse')) },
            ...widgetWriteErrors,
            '409': errorResponse('`form-token-used` (`fields.form_token`): this form already sent a message; `idempotency-key-reused`'),
            '422': errorResponse('`validation` (see `fields`; a missing or forged token is `fields.form_token`), `too-fast` (with `retry_after_ms`): send it again after that long'),
            '429': r('RateLimited'),
          },
        },
      },
      [`${W}/participant/login`]: {
        post: {
          tags: ['Widget API'],
          operationId: 'participantLogin',
          summary: 'Email a participant a sign-in PIN and link (profile keys)',
          description:
            'The answer is the same whether or not the email belongs to a participant of the key’s company, and only a participant is emailed: a 6-digit PIN and a link, `return_url` with `key=<token>` added to its query. A new login replaces the previous PIN.',
          security: [{ widgetKey: [] }],
          requestBody: { required: true, content: json(ref('ParticipantLoginRequest')) },
          responses: {
            '202': { description: 'Accepted (an email went out if the email belongs to a participant)', content: json(ref('Message')) },
            ...widgetWriteErrors,
            '400': errorResponse('`missing-key`, `bad-json`'),
            '422': errorResponse('`validation`: `fields.email`, or `fields.return_url` (not an absolute http(s) URL of a page the key serves)'),
            '429': r('RateLimited'),
          },
        },
      },
      [`${W}/participant/verify`]: {
        post: {
          tags: ['Widget API'],
          operationId: 'participantVerify',
          summary: 'Exchange the emailed PIN for a participant token (profile keys)',
          security: [{ widgetKey: [] }],
          requestBody: { required: true, content: json(ref('ParticipantVerifyRequest')) },
          responses: {
            '200': { description: 'The PIN was right', content: json(ref('ParticipantTokenResponse')) },
            ...widgetWriteErrors,
            '400': errorResponse('`missing-key`, `bad-json`'),
            '401': errorResponse(
              '`invalid-key`; `pin-wrong` (with `fields.pin` and `attempts_left`, 4 … 1), `pin-expired` (older than 5 minutes), `pin-used` (it already gave a token), `pin-missing` (none was sent to this email, or a newer login replaced it)',
            ),
            '429': errorResponse('`pin-locked`: 5 wrong tries, the PIN is dead; log in again for a new one'),
          },
        },
      },
      [`${W}/participant/me`]: {
        post: {
          tags: ['Widget API'],
          operationId: 'participantMe',
          summary: 'The signed-in participant’s first render: the widget, the participant, their registrations',
          description: `A POST because the token travels in a header. Takes any enabled key of the token’s company. \`registrations\` holds the registrations that are not cancelled, sorted by \`class.starts_at\`; \`cancellable\` is true until \`cancel_until\` (${CANCEL_BEFORE_MS / 3_600_000} hours before the class starts).`,
          security: [{ widgetKey: [], participantToken: [] }],
          responses: {
            '200': { description: 'The participant’s area', content: json(ref('ParticipantMeResponse')) },
            ...tokenErrors,
          },
        },
      },
      [`${W}/participant/profile`]: {
        post: {
          tags: ['Widget API'],
          operationId: 'participantProfile',
          summary: 'Change the participant’s name, email or phone (idempotent)',
          description:
            `Only the fields sent change, each under the registration form’s rules; \`phone: null\` or \`""\` removes the phone. The participant’s upcoming registrations take the new details. A new \`email\` does not change at once: a 6-digit PIN (and, with \`return_url\`, a link whose \`key\` confirms and signs in) goes to the new address, valid ${minutes(EMAIL_CHANGE_TTL_MS)} minutes and 5 tries, and the old address is told; \`email_change\` names the change waiting. The answer is the same whether or not another participant uses the new address (only that mailbox learns it). A newer request replaces the older.`,
          security: [{ widgetKey: [], participantToken: [] }],
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('ParticipantProfileRequest')) },
          responses: {
            '200': {
              description: 'The participant as now stored (or, with `Idempotent-Replayed: true`, the answer of the first request under this key)',
              headers: replayedHeaders,
              content: json(ref('ParticipantResponse')),
            },
            ...tokenErrors,
            '400': errorResponse('`missing-key`, `missing-idempotency-key`, `bad-json`'),
            '409': errorResponse('`idempotency-key-reused`'),
            '413': r('PayloadTooLarge'),
            '415': r('UnsupportedMediaType'),
            '422': r('Validation'),
            '429': r('RateLimited'),
          },
        },
      },
      [`${W}/participant/email/confirm`]: {
        post: {
          tags: ['Widget API'],
          operationId: 'participantConfirmEmail',
          summary: 'Confirm a new email address with the PIN sent to it',
          description: 'The PIN judged like a sign-in PIN. Right: the new address becomes the participant’s, their tokens and upcoming registrations follow, sign-in PINs sent to the old address die, and the old address is told.',
          security: [{ widgetKey: [], participantToken: [] }],
          requestBody: { required: true, content: json(ref('ParticipantConfirmEmailRequest')) },
          responses: {
            '200': { description: 'The participant with the new address', content: json(ref('ParticipantResponse')) },
            ...tokenErrors,
            '401': errorResponse('`invalid-key`, `invalid-token`; `pin-wrong` (with `attempts_left`), `pin-expired`, `pin-used`, `pin-missing` (no change waiting, or a newer one replaced it)'),
            '409': errorResponse('`email-taken`: another participant took the address in the meantime'),
            '413': r('PayloadTooLarge'),
            '415': r('UnsupportedMediaType'),
            '422': r('Validation'),
            '429': errorResponse('`pin-locked`: 5 wrong tries; change the email again for a new PIN'),
          },
        },
      },
      [`${W}/participant/registrations/{id}/cancel`]: {
        post: {
          tags: ['Widget API'],
          operationId: 'participantCancelRegistration',
          summary: 'Cancel one of the participant’s registrations (idempotent)',
          description: `No body. Until ${CANCEL_BEFORE_MS / 3_600_000} hours before the class starts. A confirmed place frees its seat: the first person on the class’s waitlist is confirmed and emailed. Cancelling a cancelled registration answers the same.`,
          security: [{ widgetKey: [], participantToken: [] }],
          parameters: [
            { name: 'id', in: 'path', required: true, description: 'The registration id', schema: { type: 'string' } },
            idempotencyKey,
          ],
          responses: {
            '200': { description: 'Cancelled', headers: replayedHeaders, content: json(ref('CancelResponse')) },
            ...tokenErrors,
            '404': errorResponse('`not-found`: the participant has no registration with this id'),
            '409': errorResponse('`not-cancellable`: the class starts within 24 hours or is past; `idempotency-key-reused`'),
          },
        },
      },
      [`${W}/participant/logout`]: {
        post: {
          tags: ['Widget API'],
          operationId: 'participantLogout',
          summary: 'Sign out: the token is invalidated',
          security: [{ widgetKey: [], participantToken: [] }],
          responses: {
            '204': { description: 'Signed out' },
            ...tokenErrors,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-SERVICE-API-KEY', description: 'The REST API key of the application' },
        userToken: { type: 'apiKey', in: 'header', name: 'X-SERVICE-TOKEN', description: 'A user token from /v1/login or /v1/verify' },
        widgetKey: { type: 'apiKey', in: 'query', name: 'key', description: 'The public widget key (`data-service-id`)' },
        participantToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-Token',
          description: 'A participant token from the participant login (the PIN’s `token`, or the emailed link’s `key`)',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description: 'One per submission, the same on every retry of it (8–200 characters)',
          schema: { type: 'string', minLength: 8, maxLength: 200 },
        },
        Company: {
          name: 'X-SERVICE-COMPANY',
          in: 'header',
          required: true,
          description: 'The company id (GET /v1/user lists the user’s companies)',
          schema: { type: 'string', examples: ['c_acme'] },
        },
        Page: { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
        PerPage: {
          name: 'per_page',
          in: 'query',
          schema: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
        },
      },
      responses: {
        BadRequest: errorResponse('`bad-json`: the body is not a JSON object'),
        Unauthorized: errorResponse('`missing-api-key`, `invalid-api-key`, `missing-token`, `invalid-token`: log in again'),
        PayloadTooLarge: errorResponse(`\`payload-too-large\`: the body is over ${MAX_BODY_BYTES} bytes`),
        UnsupportedMediaType: errorResponse('`unsupported-media-type`: send `Content-Type: application/json`'),
        Validation: errorResponse('`validation`: see `fields`'),
        RateLimited: {
          description: '`rate-limited`',
          headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } },
          content: json(ref('Error')),
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          additionalProperties: false,
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              additionalProperties: false,
              properties: {
                code: { type: 'string', examples: ['validation'] },
                message: { type: 'string', examples: ['Enter your first name.'] },
                fields: { type: 'object', additionalProperties: { type: 'string' } },
                attempts_left: {
                  type: 'integer',
                  minimum: 1,
                  maximum: 4,
                  description: '`pin-wrong` only: wrong tries left before the PIN is locked',
                },
                retry_after: { type: 'integer', minimum: 1, description: '`rate-limited` only: seconds to wait, as in `Retry-After`' },
                retry_after_ms: { type: 'integer', minimum: 1, description: '`too-fast` only: milliseconds until the form may be sent' },
              },
            },
          },
        },
        Message: {
          type: 'object',
          required: ['message'],
          additionalProperties: false,
          properties: { message: { type: 'string' } },
        },
        TokenResponse: {
          type: 'object',
          required: ['message', 'token'],
          properties: { message: { type: 'string' }, token: { type: 'string' } },
        },
        LoginRequest: {
          oneOf: [
            {
              type: 'object',
              required: ['login', 'verification_method'],
              additionalProperties: false,
              properties: {
                login: { type: 'string', format: 'email' },
                verification_method: { const: 'email' },
              },
            },
            {
              type: 'object',
              required: ['login', 'verification_method', 'client_secret'],
              additionalProperties: false,
              properties: {
                login: { type: 'string', format: 'email' },
                verification_method: { const: 'client_secret' },
                client_secret: { type: 'string' },
              },
            },
          ],
        },
        VerifyRequest: {
          type: 'object',
          required: ['action', 'email', 'pin'],
          additionalProperties: false,
          properties: {
            action: { const: 'validate_pin' },
            email: { type: 'string', format: 'email' },
            pin: { type: 'string', pattern: '^[0-9]{6}$' },
          },
        },
        Role: { type: 'string', enum: ['owner', 'member', 'lecturer'] },
        UserResponse: {
          type: 'object',
          required: ['user_valid', 'user', 'app'],
          properties: {
            user_valid: { type: 'boolean' },
            user: {
              type: 'object',
              required: ['id', 'first_name', 'last_name', 'email', 'companies'],
              properties: {
                id: { type: 'string' },
                first_name: { type: 'string' },
                last_name: { type: 'string' },
                email: { type: 'string', format: 'email' },
                companies: { type: 'array', items: ref('CompanyRole') },
              },
            },
            app: {
              type: 'object',
              required: ['application_id', 'company_id', 'type'],
              properties: {
                application_id: { type: 'string' },
                company_id: { type: 'string' },
                type: { const: 'application' },
              },
            },
          },
        },
        CompanyRole: {
          type: 'object',
          required: ['id', 'name', 'role'],
          properties: { id: { type: 'string' }, name: { type: 'string' }, role: ref('Role') },
        },
        Money: {
          type: 'object',
          required: ['amount', 'currency'],
          properties: {
            amount: { type: 'integer', minimum: 0, description: 'Minor units (cents)' },
            currency: { type: 'string', pattern: '^[A-Z]{3}$', examples: ['EUR'] },
          },
        },
        Class: {
          type: 'object',
          required: ['id', 'starts_at', 'ends_at', 'timezone', 'location', 'price', 'capacity', 'seats_left', 'waitlist', 'status'],
          properties: {
            id: { type: 'string' },
            starts_at: isoTime,
            ends_at: isoTime,
            timezone: { type: 'string', description: 'IANA time zone of the venue', examples: ['Europe/Berlin'] },
            location: { type: 'string' },
            price: ref('Money'),
            capacity: { type: 'integer', minimum: 0 },
            seats_left: { type: 'integer', minimum: 0 },
            waitlist: { type: 'boolean', description: 'Whether the class takes a waitlist' },
            status: {
              type: 'string',
              enum: ['open', 'waitlist', 'full'],
              description: 'open: seats left; waitlist: full, waitlist open; full: neither',
            },
          },
        },
        Course: {
          type: 'object',
          required: ['id', 'title', 'summary', 'category', 'classes'],
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            summary: { type: 'string' },
            category: { type: 'string' },
            classes: { type: 'array', items: ref('Class') },
          },
        },
        RestClass: {
          allOf: [
            ref('Class'),
            {
              type: 'object',
              required: ['registrations', 'lecturers'],
              properties: {
                registrations: {
                  type: 'object',
                  required: ['confirmed', 'waitlisted'],
                  properties: { confirmed: { type: 'integer' }, waitlisted: { type: 'integer' } },
                },
                lecturers: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['id', 'first_name', 'last_name'],
                    properties: { id: { type: 'string' }, first_name: { type: 'string' }, last_name: { type: 'string' } },
                  },
                },
                participants: {
                  description: 'Owners and the class’s lecturers only',
                  type: 'array',
                  items: ref('ClassParticipant'),
                },
              },
            },
          ],
        },
        ClassParticipant: {
          type: 'object',
          required: ['registration_id', 'first_name', 'last_name', 'email', 'phone', 'status', 'registered_at'],
          properties: {
            registration_id: { type: 'string' },
            first_name: { type: 'string' },
            last_name: { type: 'string' },
            email: { type: 'string', format: 'email' },
            phone: { type: ['string', 'null'] },
            status: { type: 'string', enum: ['confirmed', 'waitlisted'] },
            registered_at: isoTime,
          },
        },
        CoursesResponse: {
          type: 'object',
          required: ['company', 'courses', 'pagination'],
          properties: {
            company: ref('CompanyRole'),
            courses: {
              type: 'array',
              items: {
                allOf: [
                  ref('Course'),
                  { type: 'object', properties: { classes: { type: 'array', items: ref('RestClass') } } },
                ],
              },
            },
            pagination: {
              type: 'object',
              required: ['page', 'per_page', 'total', 'total_pages'],
              properties: {
                page: { type: 'integer', minimum: 1 },
                per_page: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX },
                total: { type: 'integer', minimum: 0 },
                total_pages: { type: 'integer', minimum: 1 },
              },
            },
          },
        },
        Widget: {
          type: 'object',
          required: ['type', 'company', 'options'],
          properties: {
            type: { type: 'string', enum: [...WIDGET_TYPES] },
            company: {
              type: 'object',
              required: ['id', 'name'],
              properties: { id: { type: 'string' }, name: { type: 'string' } },
            },
            options: {
              type: 'object',
              description: 'The widget’s configuration. Contact widgets: `topics`, the subjects a message may be filed under (possibly empty).',
              properties: { topics: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
        WidgetResponse: {
          type: 'object',
          required: ['widget'],
          properties: {
            widget: ref('Widget'),
            courses: {
              description: 'For registration, calendar and checkout widgets',
              type: 'array',
              items: ref('Course'),
            },
            form: ref('ContactForm'),
          },
        },
        RegistrationRequest: {
          type: 'object',
          required: ['class_id', 'first_name', 'last_name', 'email', 'consent'],
          additionalProperties: false,
          properties: {
            class_id: { type: 'string', maxLength: 100 },
            first_name: { type: 'string', minLength: 1, maxLength: 100 },
            last_name: { type: 'string', minLength: 1, maxLength: 100 },
            email: { type: 'string', format: 'email', maxLength: 254 },
            phone: { type: ['string', 'null'], maxLength: 40, pattern: '^[+0-9 ()\\-./]*$' },
            consent: { const: true },
          },
        },
        RegistrationResponse: {
          type: 'object',
          required: ['registration', 'class'],
          properties: {
            registration: {
              type: 'object',
              required: ['id', 'course_id', 'class_id', 'status', 'created_at'],
              properties: {
                id: { type: 'string' },
                course_id: { type: 'string' },
                class_id: { type: 'string' },
                status: { type: 'string', enum: ['confirmed', 'waitlisted'] },
                created_at: isoTime,
              },
            },
            class: {
              type: 'object',
              required: ['id', 'seats_left', 'status'],
              properties: {
                id: { type: 'string' },
                seats_left: { type: 'integer', minimum: 0 },
                status: { type: 'string', enum: ['open', 'waitlist', 'full'] },
              },
            },
          },
        },
        ParticipantLoginRequest: {
          type: 'object',
          required: ['email', 'return_url'],
          additionalProperties: false,
          properties: {
            email: { type: 'string', format: 'email', maxLength: 254 },
            return_url: {
              type: 'string',
              format: 'uri',
              maxLength: 2000,
              description: 'The page that holds the widget: an absolute http(s) URL whose origin the key serves',
              examples: ['https://shop.example/account'],
            },
          },
        },
        ParticipantVerifyRequest: {
          type: 'object',
          required: ['email', 'pin'],
          additionalProperties: false,
          properties: {
            email: { type: 'string', format: 'email', maxLength: 254 },
            pin: { type: 'string', pattern: '^[0-9]{6}$' },
          },
        },
        Participant: {
          type: 'object',
          required: ['id', 'first_name', 'last_name', 'email', 'phone'],
          additionalProperties: false,
          properties: {
            id: { type: 'string', examples: ['p_ada'] },
            first_name: { type: 'string' },
            last_name: { type: 'string' },
            email: { type: 'string', format: 'email' },
            phone: { type: ['string', 'null'] },
          },
        },
        ParticipantTokenResponse: {
          type: 'object',
          required: ['token', 'participant'],
          properties: { token: { type: 'string', examples: ['ptok_…'] }, participant: ref('Participant') },
        },
        ParticipantResponse: {
          type: 'object',
          required: ['participant', 'email_change'],
          properties: { participant: ref('Participant'), email_change: ref('EmailChange') },
        },
        EmailChange: {
          type: ['object', 'null'],
          description: 'A new email waiting for its confirmation from that mailbox, or null',
          required: ['email', 'expires_at'],
          properties: { email: { type: 'string', format: 'email' }, expires_at: isoTime },
        },
        ParticipantConfirmEmailRequest: {
          type: 'object',
          required: ['pin'],
          additionalProperties: false,
          properties: { pin: { type: 'string', pattern: '^\\d{6}$', description: 'The PIN of the email sent to the new address' } },
        },
        ParticipantRegistration: {
          type: 'object',
          required: ['id', 'status', 'course', 'class', 'past', 'cancellable', 'cancel_until'],
          properties: {
            id: { type: 'string' },
            status: { type: 'string', enum: ['confirmed', 'waitlisted'] },
            course: {
              type: 'object',
              required: ['id', 'title'],
              properties: { id: { type: 'string' }, title: { type: 'string' } },
            },
            class: {
              type: 'object',
              required: ['id', 'starts_at', 'ends_at', 'timezone', 'location'],
              properties: {
                id: { type: 'string' },
                starts_at: isoTime,
                ends_at: isoTime,
                timezone: { type: 'string', examples: ['Europe/Berlin'] },
                location: { type: 'string' },
              },
            },
            past: { type: 'boolean', description: 'The class has started (by the service clock)' },
            cancellable: { type: 'boolean', description: 'Upcoming and before `cancel_until`' },
            cancel_until: { ...isoTime, description: '24 hours before the class starts' },
          },
        },
        ParticipantMeResponse: {
          type: 'object',
          required: ['widget', 'participant', 'email_change', 'registrations'],
          properties: {
            widget: ref('Widget'),
            participant: ref('Participant'),
            email_change: ref('EmailChange'),
            registrations: { type: 'array', items: ref('ParticipantRegistration') },
          },
        },
        ParticipantProfileRequest: {
          type: 'object',
          additionalProperties: false,
          properties: {
            first_name: { type: 'string', minLength: 1, maxLength: 100 },
            last_name: { type: 'string', minLength: 1, maxLength: 100 },
            email: { type: 'string', format: 'email', maxLength: 254 },
            phone: { type: ['string', 'null'], maxLength: 40, pattern: '^[+0-9 ()\\-./]*$' },
            return_url: {
              type: 'string',
              format: 'uri',
              description: 'The page that holds the widget (a page the key serves): a new email’s confirmation link opens it',
            },
          },
        },
        ContactForm: {
          type: 'object',
          description: 'Contact widgets: proof of when the form was first shown',
          required: ['token', 'min_fill_ms'],
          properties: {
            token: { type: 'string', description: 'Send it back as `form_token`' },
            min_fill_ms: { type: 'integer', const: CONTACT_MIN_FILL_MS },
          },
        },
        ContactMessageRequest: {
          type: 'object',
          required: ['name', 'email', 'subject', 'message', 'consent', 'form_token'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: CONTACT_LIMITS.name },
            email: { type: 'string', format: 'email', maxLength: 254 },
            subject: { type: 'string', minLength: 1, maxLength: CONTACT_LIMITS.subject },
            topic: {
              type: ['string', 'null'],
              description: 'One of `widget.options.topics` when the widget has any; none otherwise',
            },
            message: { type: 'string', minLength: CONTACT_LIMITS.messageMin, maxLength: CONTACT_LIMITS.messageMax },
            consent: { const: true },
            website: { type: 'string', maxLength: 0, description: 'The honeypot: a person never sees it, and it stays empty' },
            form_token: { type: 'string', description: '`form.token` of the first render' },
          },
        },
        ContactMessageResponse: {
          type: 'object',
          required: ['message', 'form'],
          properties: {
            message: {
              type: 'object',
              required: ['id', 'created_at'],
              properties: { id: { type: 'string', examples: ['msg_…'] }, created_at: isoTime },
            },
            form: { ...ref('ContactForm'), description: 'The form token of the next message (a token sends one)' },
          },
        },
        CancelResponse: {
          type: 'object',
          required: ['registration'],
          properties: {
            registration: {
              type: 'object',
              required: ['id', 'status'],
              properties: { id: { type: 'string' }, status: { const: 'cancelled' } },
            },
          },
        },
      },
    },
  };
}
