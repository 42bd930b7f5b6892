/**
 * The OpenAPI 3.1 document of both APIs, served at `GET /openapi.json`: its paths and schemas are
 * generated from the routes' specs and their zod schemas (http/routes.ts, http/openapi.ts); the
 * prose below is written by hand.
 */
import { DEFAULT_LIMITS } from './core/rate-limit.ts';
import { LINK_TTL_MS, PARTICIPANT_TOKEN_TTL_MS } from './domain/sign-in.ts';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../contract/api/rest.ts';
import { MAX_BODY_BYTES, MAX_BODY_DEPTH } from './http/body.ts';
import { error } from './http/docs.ts';
import { buildDocument } from './http/openapi.ts';
import type { RouteSpec } from './http/routes.ts';
import { ErrorResponse } from '../contract/api/common.ts';

const minutes = (ms: number) => ms / 60000;
const W = '/widget-api/v1';

export function openApiDocument(specs: readonly RouteSpec[], serverUrl: string) {
  const L = DEFAULT_LIMITS;
  const per = (rule: { max: number; windowMs: number }) => `${rule.max} in ${minutes(rule.windowMs)} minutes`;
  const dev = specs.some((s) => s.dev);
  return buildDocument(specs, {
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
        'The REST API says them in English. The widget API says what a visitor can fix in a form (a field rule’s fault, a class refused, an email taken) in the language of `Accept-Language` (`en` or `de`, else English): the widgets send their own language there, so that a German widget shows German messages beside its fields; a developer’s faults (a wrong type, an unknown field, a missing key) stay English.',
        '',
        `**Bodies.** JSON only (\`Content-Type: application/json\`, else 415), at most ${MAX_BODY_BYTES} bytes (else 413, whatever \`Content-Length\` says), an object nested at most ${MAX_BODY_DEPTH} levels deep (else 400 \`bad-json\`), arriving within 10 seconds (else 408 \`request-timeout\`); unknown fields are refused (422), \`__proto__\` too.`,
        '',
        `**Tokens.** \`POST /v1/login\` or \`POST /v1/verify\` give a user token: opaque, 256 random bits, stored by the service only as a hash, long-lived. The token in an emailed link must be used within ${minutes(LINK_TTL_MS)} minutes of the service clock (else 401); its first use makes it long-lived like the others. The service may invalidate a token at any time; every call with it then answers 401 and the client logs in again. There is no refresh call.`,
        '',
        '**Links.** Every link the service builds (the emailed sign-in link, this document’s server) starts from its configured public URL (`PUBLIC_URL`), or from the page the application or the widget names; never from a request’s `Host` header.',
        '',
        `**Rate limits** (the defaults; a deployment may set others). Logins, \`POST /v1/login\` and \`${W}/participant/login\`: ${L.login.perEmail.max} per email and ${L.login.perAddress.max} per client address in ${minutes(L.login.perEmail.windowMs)} minutes. \`POST /v1/verify\`: ${L.verify.perEmail.max} per email and ${L.verify.perAddress.max} per client address in ${minutes(L.verify.perEmail.windowMs)} minutes. Registrations: ${per(L.registration.perAddress)} per client address, ${per(L.registration.perKey)} per widget key (a replay of the same submission is not counted). Contact messages: ${per(L.contact.perAddress)} per client address, ${per(L.contact.perKey)} per widget key. Orders: ${per(L.order.perAddress)} per client address, ${per(L.order.perKey)} per widget key (a replay is not counted). Quotes that carry a voucher code: ${per(L.voucher.perAddress)} per client address. Changes of a participant’s email: ${per(L.emailChange.perParticipant)} per participant and per new address. Beyond them: 429 \`rate-limited\` with \`Retry-After\` (seconds) and \`retry_after\` (the same, in the error object). Confirmation emails of registrations and orders to one address: at most ${per(L.confirmationEmail.perRecipient)}; beyond that the registration is made and no email is sent. The client address is the connection’s, or, only behind a proxy the service is configured to trust (\`TRUST_PROXY\`), the one \`X-Forwarded-For\` names.`,
        '',
        `**Pagination.** \`GET /v1/courses\` takes \`page\` (from 1) and \`per_page\` (1–${PER_PAGE_MAX}, default ${PER_PAGE_DEFAULT}) and answers \`pagination: { page, per_page, total, total_pages }\` beside the list.`,
        '',
        `**Participants.** The profile widget signs participants in without a password: \`POST ${W}/participant/login\` emails a 6-digit PIN (5 minutes of the service clock, once, 5 tries; a new login replaces it) and a link to \`return_url\` whose \`key\` parameter is a token (to be used within ${minutes(LINK_TTL_MS)} minutes); \`POST ${W}/participant/verify\` exchanges the PIN for a token. The token travels in the \`X-Service-Token\` header of POST calls (never in a URL), belongs to the participant's company, and lives ${PARTICIPANT_TOKEN_TTL_MS / 86_400_000} days unless logged out or invalidated; any call with a token the service does not know answers 401 \`invalid-token\`. Logins are answered alike, and in the same time, whether or not the email belongs to a participant: the email goes out after the answer.`,
        '',
        '**Ids.** In the REST API, companies, users and applications have integer ids (`user.id`, `companies[].id`, `app.application_id`, `app.company_id`); `X-SERVICE-COMPANY` takes a company’s id. The widget API names a company by its public id (`widget.company.id`, such as `c_acme`).',
        '',
        '**Roles.** In `GET /v1/courses` an owner sees every programme and class with who booked them; a member every programme and class with numbers only; a lecturer only the classes they are assigned to (and only programmes that have one), with who booked them.',
      ].join('\n'),
    },
    serverUrl,
    tags: [
      {
        name: 'REST API',
        description:
          'For company users and their tools, from servers and same-origin pages only (no CORS; never ship the API key to a browser): API key, then a user token.',
      },
      { name: 'Widget API', description: 'For the embedded widgets: the public widget key only.' },
      ...(dev
        ? [
            {
              name: 'Development',
              description:
                'Development mode only (npm start, or SERVICE_MODE=development; never in production): the outbox, the clock, tokens, login links, reset, map tiles, and a fake payment provider (`/dev/pay`) for card orders.',
            },
          ]
        : []),
    ],
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-SERVICE-API-KEY', description: 'The REST API key of the application' },
      userToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-SERVICE-TOKEN',
        description: 'A user token from /v1/login or /v1/verify',
      },
      widgetKey: { type: 'apiKey', in: 'query', name: 'key', description: 'The public widget key (`data-service-id`)' },
      orderToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Order-Token',
        description: 'The `token` of an order’s answer: it reads that order back',
      },
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
      AcceptLanguage: {
        name: 'Accept-Language',
        in: 'header',
        required: false,
        description:
          'The language of the emails the call causes and of the messages of what a visitor can fix (`fields`): the first of `en` and `de` named, else English. The widgets send their own.',
        schema: { type: 'string', examples: ['de'] },
      },
      Company: {
        name: 'X-SERVICE-COMPANY',
        in: 'header',
        required: true,
        description:
          'The company id, a whole number (GET /v1/user lists the user’s companies); anything else is 400 `invalid-company`',
        schema: { type: 'integer', minimum: 1, examples: [1] },
      },
      Page: { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
      PerPage: {
        name: 'per_page',
        in: 'query',
        schema: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
      },
    },
    responses: {
      BadRequest: error('`bad-json`: the body is not a JSON object'),
      Unauthorized: error('`missing-api-key`, `invalid-api-key`, `missing-token`, `invalid-token`: log in again'),
      PayloadTooLarge: error(`\`payload-too-large\`: the body is over ${MAX_BODY_BYTES} bytes`),
      UnsupportedMediaType: error('`unsupported-media-type`: send `Content-Type: application/json`'),
      Validation: error('`validation`: see `fields`'),
      RateLimited: {
        description: '`rate-limited`',
        headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } },
        schema: ErrorResponse,
      },
    },
  });
}
