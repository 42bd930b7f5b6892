/**
 * Participants' passwordless login and their own area (docs/widget-api.md, "Participants"): the
 * profile widget asks for an email, the service emails a PIN and a link whose `key` is a token,
 * and every later call sends that token in `X-Service-Token`. A participant belongs to one
 * company; so do their PINs and tokens.
 */
import { canonicalJson, runIdempotent } from '../../core/idempotency.ts';
import { sha256Hex } from '../../core/ids.ts';
import { pinChecks } from '../../core/rate-limit.ts';
import { EMAIL_CHANGE_TTL_MS, confirmEmailChangeByPin, pendingEmailChange } from '../../domain/email-change.ts';
import { participantOrders } from '../../domain/orders.ts';
import { CANCEL_BEFORE_MS, publicParticipant, rememberLocale, type ParticipantRow } from '../../domain/participants.ts';
import { PIN_TTL_MS, invalidateToken, queueSignInEmail } from '../../domain/sign-in.ts';
import { clientAddress } from '../../http/client-address.ts';
import { requestLocale } from '../../http/locale.ts';
import { idempotentAnswer, sendJson, type AppContext, type ServiceDeps } from '../../http/context.ts';
import { ACCEPT_LANGUAGE, IDEMPOTENCY_KEY, REPLAYED_HEADERS, TOKEN_ERRORS, WIDGET_WRITE_ERRORS, error } from '../../http/docs.ts';
import { SubApp } from '../../http/routes.ts';
import {
  WIDGET_API_PREFIX,
  requireIdempotencyKey,
  servedReturnUrl,
  widgetInfo,
  widgetKey,
  type WidgetKeyRow,
} from '../../widget-api/keys.ts';
import { participantOfRequest } from '../../widget-api/signed-in.ts';
import { MessageResponse } from '../../../contract/api/common.ts';
import {
  CancelResponse,
  ParticipantConfirmEmailRequest,
  ParticipantLoginRequest,
  ParticipantMeResponse,
  ParticipantProfileRequest,
  ParticipantResponse,
  ParticipantTokenResponse,
  ParticipantVerifyRequest,
} from '../../../contract/api/participants.ts';
import { startSignIn, verifySignInPin } from './sign-in.ts';
import { cancelRegistration, participantRegistrations, updateProfile } from './store.ts';

export const P = `${WIDGET_API_PREFIX}/participant`;
const TOKEN_SECURITY = [{ widgetKey: [], participantToken: [] }];
const minutes = (ms: number) => ms / 60000;
/**
 * Besides the profile, the widget that signs a participant in: a video widget on a page without a
 * profile (a participants-only video). The limits are per email and per address, whichever asks.
 */
const SIGNS_IN_TOO = ['video'] as const;

// The profile adds nothing to its first render (`widget` alone): a signed-in participant's area
// comes from `POST /participant/me`, with the token.
export function participantRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp(P);
  const { store, clock, limiter } = deps;
  const { db } = store;

  const requireParticipant = (c: AppContext, key: WidgetKeyRow) => participantOfRequest(deps, c, key);
  /** PIN checks: every one from a client address (whichever email or change it is for), wrong ones per `whose`. */
  const pinChecksOf = (c: AppContext, whose: string) =>
    pinChecks(limiter, deps.limits.verify, {
      address: `participant-verify:address:${clientAddress(c, deps.trustProxy)}`,
      email: `participant-verify:email:${whose}`,
    });
  const signedIn = async (c: AppContext, type?: 'profile') => {
    const key = await widgetKey(db, c, type);
    return { key, participant: await requireParticipant(c, key) };
  };
  /** A write of the signed-in participant, under the Idempotency-Key. */
  const idempotent = (
    key: WidgetKeyRow,
    participant: ParticipantRow,
    c: AppContext,
    request: string,
    create: Parameters<typeof runIdempotent>[1]['create'],
  ) =>
    runIdempotent(store, {
      scope: `widget:${key.key}:participant:${participant.id}`,
      key: requireIdempotencyKey(c),
      requestHash: sha256Hex(request),
      now: clock.now(),
      create,
    });

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${P}/login`,
      tags: ['Widget API'],
      operationId: 'participantLogin',
      summary: 'Email a participant a sign-in PIN and link (profile and video keys)',
      description:
        'The answer is the same whether or not the email belongs to a participant of the key’s company, and only a participant is emailed: a 6-digit PIN and a link, `return_url` with `key=<token>` added to its query. A new login replaces the previous PIN. A profile key or a video key (a participants-only video signs in where it is); the limits are per email and per client address, whichever key asks.',
      security: [{ widgetKey: [] }],
      parameters: [ACCEPT_LANGUAGE],
      body: ParticipantLoginRequest,
      responses: {
        '202': { description: 'Accepted (an email went out if the email belongs to a participant)', schema: MessageResponse },
        ...WIDGET_WRITE_ERRORS,
        '400': error('`missing-key`, `bad-json`'),
        '422': error(
          '`validation`: `fields.email`, or `fields.return_url` (not an absolute http(s) URL of a page the key serves)',
        ),
        '429': 'RateLimited',
      },
    },
    async (c, body) => {
      const key = await widgetKey(db, c, 'profile', SIGNS_IN_TOO);
      const { email, return_url } = await body(servedReturnUrl(key));
      // Counted for every email alike, so that a refusal tells nobody whether the email exists.
      const rules = deps.limits.login;
      await limiter.take(
        [
          { key: `participant-login:address:${clientAddress(c, deps.trustProxy)}`, ...rules.perAddress },
          { key: `participant-login:email:${key.company_id}:${email}`, ...rules.perEmail },
        ],
        'sign-in requests',
      );
      // The answer goes out before anything is looked up or written, so that its time tells nobody
      // whether the email belongs to a participant.
      const locale = requestLocale(c);
      deps.jobs.add('participant login email', () => {
        const now = clock.now();
        return store.transaction((tx) =>
          startSignIn(
            tx,
            now,
            key,
            email,
            (participant, pin, token) => {
              const link = new URL(return_url);
              link.searchParams.set('key', token);
              return queueSignInEmail(tx, now, participant, {
                name: key.company_name,
                place: locale === 'de' ? `Ihrem Konto bei ${key.company_name}` : `your account at ${key.company_name}`,
                link: link.href,
                pin,
                locale,
              });
            },
            PIN_TTL_MS,
          ),
        );
      });
      return sendJson(
        {
          message:
            'If this email belongs to a participant, a sign-in link and a 6-digit PIN are on their way. The PIN is valid for 5 minutes.',
        } satisfies MessageResponse,
        202,
      );
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${P}/verify`,
      tags: ['Widget API'],
      operationId: 'participantVerify',
      summary: 'Exchange the emailed PIN for a participant token (profile and video keys)',
      security: [{ widgetKey: [] }],
      parameters: [ACCEPT_LANGUAGE],
      body: ParticipantVerifyRequest,
      responses: {
        '200': { description: 'The PIN was right', schema: ParticipantTokenResponse },
        ...WIDGET_WRITE_ERRORS,
        '400': error('`missing-key`, `bad-json`'),
        '401': error(
          '`invalid-key`; `pin-wrong` (with `fields.pin` and `attempts_left`, 4 … 1), `pin-expired` (older than 5 minutes), `pin-used` (it already gave a token), `pin-missing` (none was sent to this email, or a newer login replaced it)',
        ),
        '429': error(
          '`pin-locked`: 5 wrong tries, the PIN is dead; log in again for a new one. `rate-limited`: too many PIN checks from this client address (100 in 10 minutes) or for this email (10)',
        ),
      },
    },
    async (c, body) => {
      const key = await widgetKey(db, c, 'profile', SIGNS_IN_TOO);
      const { email, pin } = await body();
      // As the REST API's: every check per address (across emails), wrong PINs per email (across addresses).
      const checks = pinChecksOf(c, `${key.company_id}:${email}`);
      await checks.check();
      const now = clock.now();
      const outcome = await store.transaction((tx) => verifySignInPin(tx, now, key.company_id, email, pin));
      // Thrown after the transaction commits, so that a wrong try stays counted.
      if ('refused' in outcome) {
        await checks.judged(outcome.wrong);
        throw outcome.refused;
      }
      // Signed in: what comes later (a place freed) is written in this widget's language.
      await rememberLocale(db, outcome.participant.id, requestLocale(c));
      return sendJson({
        token: outcome.token,
        participant: publicParticipant(outcome.participant),
      } satisfies ParticipantTokenResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${P}/me`,
      tags: ['Widget API'],
      operationId: 'participantMe',
      summary: 'The signed-in participant’s first render: the widget, the participant, their registrations',
      description: `A POST because the token travels in a header. Takes any enabled key of the token’s company. \`registrations\` holds the registrations that are not cancelled, sorted by \`class.starts_at\`; \`cancellable\` is true until \`cancel_until\` (${CANCEL_BEFORE_MS / 3_600_000} hours before the class starts). \`orders\` holds the participant’s orders (as the buyer), newest first, whatever their status; their seats are not in \`registrations\` and are not cancelled one by one.`,
      security: TOKEN_SECURITY,
      responses: { '200': { description: 'The participant’s area', schema: ParticipantMeResponse }, ...TOKEN_ERRORS },
    },
    async (c) => {
      const { key, participant } = await signedIn(c);
      const now = clock.now();
      return sendJson({
        widget: widgetInfo(key),
        participant: publicParticipant(participant),
        email_change: await pendingEmailChange(db, participant, now),
        registrations: await participantRegistrations(db, participant, now),
        orders: await participantOrders(db, participant.id, now),
      } satisfies ParticipantMeResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${P}/profile`,
      tags: ['Widget API'],
      operationId: 'participantProfile',
      summary: 'Change the participant’s name, email or phone (idempotent)',
      description: `Only the fields sent change, each under the registration form’s rules; \`phone: null\` or \`""\` removes the phone. The participant’s upcoming registrations take the new details. A new \`email\` does not change at once: a 6-digit PIN (and, with \`return_url\`, a link whose \`key\` confirms and signs in) goes to the new address, valid ${minutes(EMAIL_CHANGE_TTL_MS)} minutes and 5 tries, and the old address is told; \`email_change\` names the change waiting. The answer is the same whether or not another participant uses the new address (only that mailbox learns it). A newer request replaces the older.`,
      security: TOKEN_SECURITY,
      parameters: [IDEMPOTENCY_KEY, ACCEPT_LANGUAGE],
      body: ParticipantProfileRequest,
      responses: {
        '200': {
          description:
            'The participant as now stored (or, with `Idempotent-Replayed: true`, the answer of the first request under this key)',
          headers: REPLAYED_HEADERS,
          schema: ParticipantResponse,
        },
        ...TOKEN_ERRORS,
        '400': error('`missing-key`, `missing-idempotency-key`, `bad-json`'),
        '409': error('`idempotency-key-reused`'),
        '413': 'PayloadTooLarge',
        '415': 'UnsupportedMediaType',
        '422': 'Validation',
        '429': 'RateLimited',
      },
    },
    async (c, body) => {
      const { key, participant } = await signedIn(c);
      requireIdempotencyKey(c);
      const input = await body(servedReturnUrl(key));
      await rememberLocale(db, participant.id, requestLocale(c));
      // Only the fields sent change.
      const { return_url, phone, ...names } = input;
      const changes = {
        ...Object.fromEntries(Object.entries(names).filter(([, v]) => v !== undefined)),
        ...(phone !== undefined ? { phone } : {}),
        ...(return_url ? { returnUrl: new URL(return_url).href } : {}),
      };
      const result = await idempotent(key, participant, c, `POST ${P}/profile\n${canonicalJson(input)}`, (tx) =>
        updateProfile(tx, clock.now(), key, participant, changes, { limiter, limits: deps.limits.emailChange }),
      );
      return idempotentAnswer(result);
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${P}/email/confirm`,
      tags: ['Widget API'],
      operationId: 'participantConfirmEmail',
      summary: 'Confirm a new email address with the PIN sent to it',
      description:
        'The PIN judged like a sign-in PIN. Right: the new address becomes the participant’s, their tokens and upcoming registrations follow, sign-in PINs sent to the old address die, and the old address is told.',
      security: TOKEN_SECURITY,
      parameters: [ACCEPT_LANGUAGE],
      body: ParticipantConfirmEmailRequest,
      responses: {
        '200': { description: 'The participant with the new address', schema: ParticipantResponse },
        ...TOKEN_ERRORS,
        '401': error(
          '`invalid-key`, `invalid-token`; `pin-wrong` (with `attempts_left`), `pin-expired`, `pin-used`, `pin-missing` (no change waiting, or a newer one replaced it)',
        ),
        '409': error('`email-taken`: another participant took the address in the meantime'),
        '413': 'PayloadTooLarge',
        '415': 'UnsupportedMediaType',
        '422': 'Validation',
        '429': error(
          '`pin-locked`: 5 wrong tries; change the email again for a new PIN. `rate-limited`: too many PIN checks from this client address',
        ),
      },
    },
    async (c, body) => {
      const { key, participant } = await signedIn(c);
      const { pin } = await body();
      const checks = pinChecksOf(c, `email-change:${participant.id}`);
      await checks.check();
      const now = clock.now();
      const outcome = await store.transaction((tx) => confirmEmailChangeByPin(tx, now, key, participant, pin));
      if ('refused' in outcome) {
        await checks.judged(outcome.wrong);
        throw outcome.refused;
      }
      return sendJson({ participant: publicParticipant(outcome), email_change: null } satisfies ParticipantResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${P}/registrations/{id}/cancel`,
      tags: ['Widget API'],
      operationId: 'participantCancelRegistration',
      summary: 'Cancel one of the participant’s registrations (idempotent)',
      description: `No body. Until ${CANCEL_BEFORE_MS / 3_600_000} hours before the class starts. A confirmed place frees its seat: the first person on the class’s waitlist is confirmed and emailed. Cancelling a cancelled registration answers the same.`,
      security: TOKEN_SECURITY,
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'The registration id', schema: { type: 'string' } },
        IDEMPOTENCY_KEY,
        ACCEPT_LANGUAGE,
      ],
      responses: {
        '200': { description: 'Cancelled', headers: REPLAYED_HEADERS, schema: CancelResponse },
        ...TOKEN_ERRORS,
        '404': error('`not-found`: the participant has no registration with this id'),
        '409': error(
          '`not-cancellable`: the class starts within 24 hours or is past, or the place is a seat of an order (the company changes orders); `idempotency-key-reused`',
        ),
      },
    },
    async (c) => {
      const { key, participant } = await signedIn(c);
      const id = c.req.param('id') ?? '';
      const result = await idempotent(key, participant, c, `POST ${P}/registrations/${id}/cancel`, (tx) =>
        cancelRegistration(tx, clock.now(), key, participant, id, requestLocale(c)),
      );
      return idempotentAnswer(result);
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${P}/logout`,
      tags: ['Widget API'],
      operationId: 'participantLogout',
      summary: 'Sign out: the token is invalidated',
      security: TOKEN_SECURITY,
      responses: { '204': { description: 'Signed out' }, ...TOKEN_ERRORS },
    },
    async (c) => {
      await signedIn(c);
      await invalidateToken(db, sha256Hex(c.req.header('x-service-token')!.trim()), clock.now());
      return new Response(null, { status: 204 });
    },
  );
  return [app];
}
