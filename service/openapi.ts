/**
 * The OpenAPI 3.1 document of both APIs, served at `GET /openapi.json`. It is written by hand
 * next to the code it describes; `test/openapi.test.ts` checks that every operation in it exists
 * in the service and that every reference resolves.
 */
import { PER_PAGE_DEFAULT, PER_PAGE_MAX, RATE_LIMITS } from './rest-api.ts';
import { MAX_BODY_BYTES } from './body.ts';
import { WIDGET_TYPES } from './seed.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json(ref('Error')) });
const r = (name: string) => ({ $ref: `#/components/responses/${name}` });
const minutes = (ms: number) => ms / 60000;

const isoTime = { type: 'string', format: 'date-time', examples: ['2026-12-01T09:00:00.000Z'] };

export function openApiDocument(serverUrl: string) {
  const L = RATE_LIMITS;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Service widgets: REST API and widget API',
      version: '1.0.0',
      description: [
        'The REST API of the service (`/v1/*`) and the public widget API the embedded widgets use (`/widget-api/v1/*`).',
        '',
        '**Errors.** Every error, of either API, has one body: `{ "error": { "code", "message", "fields"? } }`.',
        '`message` says how to fix the problem; `fields` maps a body field (or query parameter) to its own message and appears only when a field is at fault.',
        '',
        `**Bodies.** JSON only (\`Content-Type: application/json\`, else 415), at most ${MAX_BODY_BYTES} bytes (else 413, whatever \`Content-Length\` says), an object (else 400 \`bad-json\`); unknown fields are refused (422).`,
        '',
        '**Tokens.** `POST /v1/login` or `POST /v1/verify` give a user token: opaque, 256 random bits, stored by the service only as a hash, long-lived. The service may invalidate a token at any time; every call with it then answers 401 and the client logs in again. There is no refresh call.',
        '',
        `**Rate limits.** \`POST /v1/login\`: ${L.login.perEmail.max} per email and ${L.login.perAddress.max} per client address in ${minutes(L.login.perEmail.windowMs)} minutes. \`POST /v1/verify\`: ${L.verify.perEmail.max} per email and ${L.verify.perAddress.max} per client address in ${minutes(L.verify.perEmail.windowMs)} minutes. Beyond them: 429 \`rate-limited\` with \`Retry-After\` (seconds).`,
        '',
        `**Pagination.** \`GET /v1/courses\` takes \`page\` (from 1) and \`per_page\` (1–${PER_PAGE_MAX}, default ${PER_PAGE_DEFAULT}) and answers \`pagination: { page, per_page, total, total_pages }\` beside the list.`,
        '',
        '**Roles.** In `GET /v1/courses` an owner sees every programme and class with who booked them; a member every programme and class with numbers only; a lecturer only the classes they are assigned to (and only programmes that have one), with who booked them.',
      ].join('\n'),
    },
    servers: [{ url: serverUrl, description: 'This service' }],
    tags: [
      { name: 'REST API', description: 'For company users and their tools: API key, then a user token.' },
      { name: 'Widget API', description: 'For the embedded widgets: the public widget key only.' },
    ],
    paths: {
      '/v1/login': {
        post: {
          tags: ['REST API'],
          operationId: 'login',
          summary: 'Log a user in, by emailed link and PIN or by client secret',
          description:
            '`email`: the user is emailed a link whose `key` query parameter is a token, and a 6-digit PIN (valid 5 minutes, once, 5 tries; a new login replaces it). The answer is the same whether or not the email belongs to a user. `client_secret`: the token in the answer, for server-to-server use.',
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
            'One transaction decides the seat: concurrent registrations never overbook. A full class waitlists when its waitlist has room, else 409 `class-full`. The same `Idempotency-Key` with the same body answers the first registration again (200, `Idempotent-Replayed: true`); with another body 409 `idempotency-key-reused`. The participant is emailed a confirmation.',
          security: [{ widgetKey: [] }],
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: true,
              description: 'One per submission, the same on every retry of it (8–200 characters)',
              schema: { type: 'string', minLength: 8, maxLength: 200 },
            },
          ],
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
            '409': errorResponse('`class-full`, `already-registered`, `idempotency-key-reused`'),
            '413': r('PayloadTooLarge'),
            '415': r('UnsupportedMediaType'),
            '422': r('Validation'),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-SERVICE-API-KEY', description: 'The REST API key of the application' },
        userToken: { type: 'apiKey', in: 'header', name: 'X-SERVICE-TOKEN', description: 'A user token from /v1/login or /v1/verify' },
        widgetKey: { type: 'apiKey', in: 'query', name: 'key', description: 'The public widget key (`data-service-id`)' },
      },
      parameters: {
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
                  items: ref('Participant'),
                },
              },
            },
          ],
        },
        Participant: {
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
        WidgetResponse: {
          type: 'object',
          required: ['widget'],
          properties: {
            widget: {
              type: 'object',
              required: ['type', 'company', 'options'],
              properties: {
                type: { type: 'string', enum: [...WIDGET_TYPES] },
                company: {
                  type: 'object',
                  required: ['id', 'name'],
                  properties: { id: { type: 'string' }, name: { type: 'string' } },
                },
                options: { type: 'object' },
              },
            },
            courses: {
              description: 'For registration, calendar and checkout widgets',
              type: 'array',
              items: ref('Course'),
            },
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
      },
    },
  };
}
