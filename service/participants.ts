/**
 * Participants' passwordless login and their own area (docs/widget-api.md, "Participants"): the
 * profile widget asks for an email, the service emails a PIN and a link whose `key` is a token,
 * and every later call sends that token in `X-Service-Token`. A participant belongs to one
 * company; so do their PINs and tokens.
 */
import type { Hono } from 'hono';
import { LINK_TTL_MS, PIN_MAX_ATTEMPTS, PIN_TTL_MS, clientAddress, newPin, pinHash, sameHash } from './auth.ts';
import { readJsonObject } from './body.ts';
import { formatClassStart, getClass } from './catalog.ts';
import { isoTime, sendJson, type AppContext, type AppEnv, type ServiceDeps } from './context.ts';
import type { Db } from './db.ts';
import { ApiError, methodNotAllowed, validationError, type FieldErrors } from './errors.ts';
import { canonicalJson, runIdempotent } from './idempotency.ts';
import { randomToken, sha256Hex } from './ids.ts';
import { originAllowed } from './origins.ts';
import { queueEmail, queueSignInEmail } from './outbox.ts';
import { DEFAULT_LIMITS, type RateLimiter } from './rate-limit.ts';
import { PERSON_TEXT, personEmail, phoneField, textField, unknownFields } from './validate.ts';
import {
  WIDGET_API_PREFIX,
  keyOrigins,
  requireIdempotencyKey,
  widgetInfo,
  widgetKey,
  type WidgetKeyRow,
} from './widget-keys.ts';

const HOUR = 60 * 60 * 1000;
/** A participant token dies 30 days after it was issued (sessionStorage usually forgets it sooner). */
export const PARTICIPANT_TOKEN_TTL_MS = 30 * 24 * HOUR;
/** A registration can be cancelled until this long before its class starts. */
export const CANCEL_BEFORE_MS = 24 * HOUR;
/** The same limits as the REST API's login: per email (and company) and per client address. */
export const PARTICIPANT_LOGIN_LIMITS = DEFAULT_LIMITS.login;
/**
 * The PIN and the link that confirm a new email address work this long (and the PIN for 5 tries):
 * the participant has to switch to the other mailbox first.
 */
export const EMAIL_CHANGE_TTL_MS = LINK_TTL_MS;

interface ParticipantRow {
  id: string;
  company_id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
}

export function registerParticipantApi(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const { db } = deps.store;
  const { clock, limiter } = deps;
  const P = `${WIDGET_API_PREFIX}/participant`;

  app.post(`${P}/login`, async (c) => {
    const key = widgetKey(db, c, 'profile');
    const body = await readJsonObject(c);
    const fields = unknownFields(body, ['email', 'return_url']);
    const email = personEmail(body, fields);
    const returnUrl = returnUrlField(body, key, fields);
    if (Object.keys(fields).length > 0) throw validationError(fields);
    // Counted for every email alike, so that a refusal tells nobody whether the email exists.
    const rules = deps.limits.login;
    limiter.take(
      [
        { key: `participant-login:address:${clientAddress(c, deps.trustProxy)}`, ...rules.perAddress },
        { key: `participant-login:email:${key.company_id}:${email}`, ...rules.perEmail },
      ],
      'sign-in requests',
    );

    // The answer goes out before anything is looked up or written, so that its time tells nobody
    // whether the email belongs to a participant.
    deps.jobs.add('participant login email', () => {
      const participant = findParticipant(db, key.company_id, email!);
      const now = clock.now();
      if (participant) {
        db.transaction(() => {
          replacePins(db, participant, now);
          const pin = newPin();
          db.prepare(
            `INSERT INTO pins (kind, subject_id, email, company_id, pin_hash, expires_at)
             VALUES ('participant', ?, ?, ?, ?, ?)`,
          ).run(participant.id, participant.email, key.company_id, participantPinHash(participant, pin), now + PIN_TTL_MS);
          const link = new URL(returnUrl!);
          link.searchParams.set('key', issueToken(db, now, participant, { emailed: true }));
          queueSignInEmail(db, now, participant, {
            name: key.company_name,
            place: `your area at ${key.company_name}`,
            link: link.href,
            pin,
          });
        }).immediate();
      } else {
        // A stranger gets a PIN nobody knows, so that verifying answers exactly as for a participant
        // (`pin-wrong`, then `pin-locked` or `pin-expired`) and tells nobody whether the email exists.
        db.transaction(() => {
          db.prepare(
            `UPDATE pins SET replaced_at = ? WHERE kind = 'participant' AND subject_id = '' AND company_id = ?
             AND email = ? AND replaced_at IS NULL`,
          ).run(now, key.company_id, email);
          db.prepare(
            `INSERT INTO pins (kind, subject_id, email, company_id, pin_hash, expires_at)
             VALUES ('participant', '', ?, ?, ?, ?)`,
          ).run(email, key.company_id, sha256Hex(randomToken('decoy')), now + PIN_TTL_MS);
        }).immediate();
      }
    });
    return sendJson(
      {
        message:
          'If this email belongs to a participant, a sign-in link and a 6-digit PIN are on their way. The PIN is valid for 5 minutes.',
      },
      202,
    );
  });

  app.post(`${P}/verify`, async (c) => {
    const key = widgetKey(db, c, 'profile');
    const body = await readJsonObject(c);
    const fields = unknownFields(body, ['email', 'pin']);
    const email = personEmail(body, fields);
    const pin = pinField(body, fields);
    if (Object.keys(fields).length > 0) throw validationError(fields);

    const now = clock.now();
    // The attempt is decided and counted in one transaction (parallel guesses cannot share a try),
    // and the refusal is thrown after it commits, so that the count stays.
    const outcome = db
      .transaction((): { token: string; participant: ParticipantRow } | ApiError => {
        const rows = db
          .prepare(
            `SELECT id, subject_id, pin_hash, expires_at, attempts, used_at, replaced_at FROM pins
             WHERE kind = 'participant' AND company_id = ? AND email = ? ORDER BY id DESC LIMIT 20`,
          )
          .all(key.company_id, email) as PinRow[];
        const judged = judgePin(db, rows, pinHash(`${key.company_id}:${email}`, pin!), now, {
          noneSent: 'No PIN was sent to this email: ask for a new one.',
          validFor: '5 minutes',
        });
        if (judged instanceof ApiError) return judged;
        const participant = db
          .prepare(
            'SELECT id, company_id, email, first_name, last_name, phone FROM participants WHERE id = ? AND company_id = ?',
          )
          .get(judged.subject_id, key.company_id) as ParticipantRow | undefined;
        if (!participant) return pinError(401, 'pin-missing', 'No PIN was sent to this email: ask for a new one.');
        db.prepare('UPDATE pins SET used_at = ? WHERE id = ?').run(now, judged.id);
        return { token: issueToken(db, now, participant), participant };
      })
      .immediate();
    if (outcome instanceof ApiError) throw outcome;
    return sendJson({ token: outcome.token, participant: publicParticipant(outcome.participant) });
  });

  app.post(`${P}/me`, (c) => {
    const key = widgetKey(db, c);
    const participant = requireParticipant(db, c, key, clock.now());
    return sendJson({
      widget: widgetInfo(key),
      participant: publicParticipant(participant),
      email_change: pendingEmailChange(db, participant, clock.now()),
      registrations: participantRegistrations(db, participant, clock.now()),
    });
  });

  app.post(`${P}/profile`, async (c) => {
    const key = widgetKey(db, c);
    const participant = requireParticipant(db, c, key, clock.now());
    const idempotencyKey = requireIdempotencyKey(c);
    const body = await readJsonObject(c);
    const changes = validateProfile(body, key);
    const result = runIdempotent(db, {
      scope: `widget:${key.key}:participant:${participant.id}`,
      key: idempotencyKey,
      requestHash: sha256Hex(`POST ${P}/profile\n${canonicalJson(body)}`),
      now: clock.now(),
      create: () => updateProfile(db, clock.now(), key, participant, changes, { limiter, limits: deps.limits.emailChange }),
    });
    return sendJson(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  });

  app.post(`${P}/email/confirm`, async (c) => {
    const key = widgetKey(db, c);
    const participant = requireParticipant(db, c, key, clock.now());
    const body = await readJsonObject(c);
    const fields = unknownFields(body, ['pin']);
    const pin = pinField(body, fields);
    if (Object.keys(fields).length > 0) throw validationError(fields);
    const now = clock.now();
    const outcome = db
      .transaction((): ParticipantRow | ApiError => {
        const rows = db
          .prepare(
            `SELECT id, subject_id, email, pin_hash, expires_at, attempts, used_at, replaced_at FROM pins
             WHERE kind = 'email' AND subject_id = ? ORDER BY id DESC LIMIT 20`,
          )
          .all(participant.id) as (PinRow & { email: string })[];
        const judged = judgePin(db, rows, emailChangePinHash(participant, pin!), now, {
          noneSent: 'No change of email is waiting: change your email in your details first.',
          validFor: 'an hour',
        });
        if (judged instanceof ApiError) return judged;
        return applyEmailChange(db, now, key, participant, judged as PinRow & { email: string });
      })
      .immediate();
    if (outcome instanceof ApiError) throw outcome;
    return sendJson({ participant: publicParticipant(outcome), email_change: null });
  });

  app.post(`${P}/registrations/:id/cancel`, (c) => {
    const key = widgetKey(db, c);
    const participant = requireParticipant(db, c, key, clock.now());
    const idempotencyKey = requireIdempotencyKey(c);
    const id = c.req.param('id');
    const result = runIdempotent(db, {
      scope: `widget:${key.key}:participant:${participant.id}`,
      key: idempotencyKey,
      requestHash: sha256Hex(`POST ${P}/registrations/${id}/cancel`),
      now: clock.now(),
      create: () => cancelRegistration(db, clock.now(), key, participant, id),
    });
    return sendJson(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  });

  app.post(`${P}/logout`, (c) => {
    const key = widgetKey(db, c);
    requireParticipant(db, c, key, clock.now());
    db.prepare('UPDATE tokens SET invalidated_at = ? WHERE hash = ?').run(clock.now(), tokenHash(c));
    return new Response(null, { status: 204 });
  });

  for (const path of ['login', 'verify', 'me', 'profile', 'email/confirm', 'registrations/:id/cancel', 'logout']) {
    app.all(`${P}/${path}`, () => {
      throw methodNotAllowed(['POST', 'OPTIONS']);
    });
  }
}

function findParticipant(db: Db, companyId: string, email: string): ParticipantRow | undefined {
  return db
    .prepare(
      'SELECT id, company_id, email, first_name, last_name, phone FROM participants WHERE company_id = ? AND email = ?',
    )
    .get(companyId, email) as ParticipantRow | undefined;
}

function publicParticipant(p: ParticipantRow) {
  return { id: p.id, first_name: p.first_name, last_name: p.last_name, email: p.email, phone: p.phone };
}

/** An absolute http(s) URL of a page the key serves: the emailed link opens it. */
function returnUrlField(body: Record<string, unknown>, key: WidgetKeyRow, fields: FieldErrors, required = true): string | undefined {
  const value = body.return_url;
  if (value === undefined || value === null || value === '') {
    if (required) fields.return_url = 'Send return_url: the address of the page that holds the widget (the emailed link opens it).';
    return undefined;
  }
  if (typeof value !== 'string') {
    fields.return_url = 'return_url must be text (a JSON string).';
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = value.length <= 2000 ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    fields.return_url = 'return_url must be an absolute http(s) address of at most 2000 characters, like https://example.com/account.';
    return undefined;
  }
  if (!originAllowed(url.origin, keyOrigins(key))) {
    fields.return_url = `This widget key does not serve pages on ${url.origin}: return_url must be a page the key serves.`;
    return undefined;
  }
  return url.href;
}

function pinField(body: Record<string, unknown>, fields: FieldErrors): string | undefined {
  const pin = body.pin;
  if (typeof pin === 'string' && /^\d{6}$/.test(pin)) return pin;
  fields.pin = 'Enter the 6 digits of the PIN from the email.';
  return undefined;
}

function participantPinHash(p: { company_id: string; email: string }, pin: string): string {
  return pinHash(`${p.company_id}:${p.email}`, pin);
}

function emailChangePinHash(p: { company_id: string; id: string }, pin: string): string {
  return pinHash(`email:${p.company_id}:${p.id}`, pin);
}

/** A newer login, or a new email address, retires every PIN still waiting. */
function replacePins(db: Db, p: ParticipantRow, now: number): void {
  db.prepare(
    `UPDATE pins SET replaced_at = ? WHERE kind = 'participant' AND subject_id = ?
     AND used_at IS NULL AND replaced_at IS NULL`,
  ).run(now, p.id);
}

/**
 * A token of the participant. `emailed`: the key of a link in an email, which dies unused after
 * LINK_TTL_MS; `confirmsPin`: its first use also confirms that email change.
 */
function issueToken(db: Db, now: number, p: ParticipantRow, opts: { emailed?: boolean; confirmsPin?: number } = {}): string {
  const token = randomToken('ptok');
  db.prepare(
    `INSERT INTO tokens (hash, kind, subject_id, email, company_id, created_at, emailed, confirms_pin)
     VALUES (?, 'participant', ?, ?, ?, ?, ?, ?)`,
  ).run(sha256Hex(token), p.id, p.email, p.company_id, now, opts.emailed ? 1 : 0, opts.confirmsPin ?? null);
  return token;
}

interface PinRow {
  id: number;
  subject_id: string;
  pin_hash: string;
  expires_at: number;
  attempts: number;
  used_at: number | null;
  replaced_at: number | null;
}

const pinError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(status, code, message, { pin: message }, {}, extra);

/**
 * Judges a PIN against the PINs sent for one purpose (newest first), counting a wrong try, in this
 * order: `pin-missing`, `pin-used`, `pin-locked`, `pin-expired`, then the right PIN's row or
 * `pin-wrong`. A PIN of an earlier email that a newer one replaced is `pin-missing` and no try.
 * Runs inside the caller's transaction.
 */
function judgePin(
  db: Db,
  rows: PinRow[],
  hash: string,
  now: number,
  { noneSent, validFor }: { noneSent: string; validFor: string },
): PinRow | ApiError {
  const replacedMatch = rows.some((r) => r.replaced_at !== null && sameHash(hash, r.pin_hash));
  const replaced = () =>
    pinError(401, 'pin-missing', 'This PIN was replaced by a newer one: enter the PIN from the latest email.');
  const current = rows.find((r) => r.replaced_at === null);
  if (!current) return replacedMatch ? replaced() : pinError(401, 'pin-missing', noneSent);
  if (current.used_at !== null) {
    return pinError(401, 'pin-used', 'This PIN was already used: ask for a new one.');
  }
  if (current.attempts >= PIN_MAX_ATTEMPTS) {
    return pinError(429, 'pin-locked', 'This PIN was entered wrong 5 times and no longer works: ask for a new one.');
  }
  if (current.expires_at <= now) {
    return pinError(401, 'pin-expired', `This PIN has expired (a PIN is valid for ${validFor}): ask for a new one.`);
  }
  if (sameHash(hash, current.pin_hash)) return current;
  // An old PIN from an earlier email is not a guess: say which email to use, and count nothing.
  if (replacedMatch) return replaced();
  const attempts = current.attempts + 1;
  db.prepare('UPDATE pins SET attempts = ? WHERE id = ?').run(attempts, current.id);
  if (attempts >= PIN_MAX_ATTEMPTS) {
    return pinError(429, 'pin-locked', 'This PIN was entered wrong 5 times and no longer works: ask for a new one.');
  }
  const left = PIN_MAX_ATTEMPTS - attempts;
  return pinError(
    401,
    'pin-wrong',
    `This PIN is not right: check the email and try again (${left} ${left === 1 ? 'try' : 'tries'} left).`,
    { attempts_left: left },
  );
}

function tokenHash(c: AppContext): string | undefined {
  const token = c.req.header('x-service-token')?.trim();
  return token ? sha256Hex(token) : undefined;
}

/**
 * The participant of the `X-Service-Token`, of the key's company, or 401 `invalid-token`. A token
 * from an emailed link must be used within LINK_TTL_MS; its first use keeps it, and, for the link of
 * an email change, confirms that change.
 */
function requireParticipant(db: Db, c: AppContext, key: WidgetKeyRow, now: number): ParticipantRow {
  const hash = tokenHash(c);
  const invalid = () =>
    new ApiError(
      401,
      'invalid-token',
      hash === undefined
        ? 'Sign in first: send the token of the sign-in in the X-Service-Token header.'
        : 'This sign-in is no longer valid (signed out, expired or revoked): sign in again.',
    );
  if (hash === undefined) throw invalid();
  const row = db
    .prepare(
      `SELECT p.id, p.company_id, p.email, p.first_name, p.last_name, p.phone,
              t.emailed, t.used_at, t.confirms_pin
       FROM tokens t JOIN participants p ON p.id = t.subject_id AND p.company_id = t.company_id
       WHERE t.hash = ? AND t.kind = 'participant' AND t.invalidated_at IS NULL
         AND t.company_id = ? AND t.created_at > ?
         AND (t.emailed = 0 OR t.used_at IS NOT NULL OR t.created_at > ?)`,
    )
    .get(hash, key.company_id, now - PARTICIPANT_TOKEN_TTL_MS, now - LINK_TTL_MS) as
    | (ParticipantRow & { emailed: number; used_at: number | null; confirms_pin: number | null })
    | undefined;
  if (!row) throw invalid();
  const { emailed, used_at, confirms_pin, ...participant } = row;
  if (emailed === 0 || used_at !== null) return participant;
  return db
    .transaction((): ParticipantRow => {
      // Marked used first, in the same transaction, so that two first uses at once confirm once.
      if (db.prepare('UPDATE tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL').run(now, hash).changes === 0) {
        return findParticipant(db, participant.company_id, participant.email) ?? participant;
      }
      if (confirms_pin === null) return participant;
      const pin = db
        .prepare(
          `SELECT id, subject_id, email, pin_hash, expires_at, attempts, used_at, replaced_at FROM pins
           WHERE id = ? AND kind = 'email' AND subject_id = ? AND used_at IS NULL AND replaced_at IS NULL AND expires_at > ?`,
        )
        .get(confirms_pin, participant.id, now) as (PinRow & { email: string }) | undefined;
      // A change replaced by a newer one, or already confirmed by its PIN: the link no longer signs in.
      if (!pin) throw invalid();
      return applyEmailChange(db, now, key, participant, pin);
    })
    .immediate();
}

/** The change of email waiting for its confirmation, if any: `{ email, expires_at }`. */
function pendingEmailChange(db: Db, p: ParticipantRow, now: number) {
  const row = db
    .prepare(
      `SELECT email, expires_at FROM pins WHERE kind = 'email' AND subject_id = ? AND used_at IS NULL
       AND replaced_at IS NULL AND expires_at > ? AND attempts < ? ORDER BY id DESC LIMIT 1`,
    )
    .get(p.id, now, PIN_MAX_ATTEMPTS) as { email: string; expires_at: number } | undefined;
  return row ? { email: row.email, expires_at: isoTime(row.expires_at) } : null;
}

/**
 * Makes a confirmed new address the participant's (inside the caller's transaction): the tokens
 * follow the person (so that invalidating by email still finds them), sign-in PINs sent to the old
 * address stop working, upcoming registrations follow, and the old address is told.
 */
function applyEmailChange(db: Db, now: number, key: WidgetKeyRow, p: ParticipantRow, pin: PinRow & { email: string }): ParticipantRow {
  const taken = db
    .prepare('SELECT 1 FROM participants WHERE company_id = ? AND email = ? AND id <> ?')
    .get(p.company_id, pin.email, p.id);
  if (taken) {
    throw new ApiError(409, 'email-taken', 'Another participant already uses this email address.', {
      email: 'Another participant already uses this email address: keep your address, or use another one.',
    });
  }
  db.prepare('UPDATE pins SET used_at = ? WHERE id = ?').run(now, pin.id);
  db.prepare("UPDATE tokens SET email = ? WHERE kind = 'participant' AND subject_id = ?").run(pin.email, p.id);
  replacePins(db, p, now);
  db.prepare('UPDATE participants SET email = ? WHERE id = ?').run(pin.email, p.id);
  db.prepare(
    `UPDATE registrations SET email = ? WHERE participant_id = ? AND status <> 'cancelled'
       AND class_id IN (SELECT id FROM classes WHERE starts_at > ?)`,
  ).run(pin.email, p.id, now);
  queueEmail(db, now, {
    to: p.email,
    subject: `Your email address at ${key.company_name} has changed`,
    text: [
      `Hello ${p.first_name},`,
      '',
      `the email address of your account at ${key.company_name} is now ${pin.email}, confirmed from that mailbox.`,
      'This address no longer signs in to it.',
      '',
      `If you did not make this change, contact ${key.company_name} at once.`,
    ].join('\n'),
  });
  return { ...p, email: pin.email };
}

function participantRegistrations(db: Db, p: ParticipantRow, now: number) {
  const rows = db
    .prepare(
      `SELECT r.id, r.status, co.id AS course_id, co.title, cl.id AS class_id, cl.starts_at, cl.ends_at,
              cl.timezone, cl.location
       FROM registrations r JOIN classes cl ON cl.id = r.class_id JOIN courses co ON co.id = cl.course_id
       WHERE r.participant_id = ? AND co.company_id = ? AND r.status <> 'cancelled'
       ORDER BY cl.starts_at, r.created_at, r.id`,
    )
    .all(p.id, p.company_id) as {
    id: string;
    status: 'confirmed' | 'waitlisted';
    course_id: string;
    title: string;
    class_id: string;
    starts_at: number;
    ends_at: number;
    timezone: string;
    location: string;
  }[];
  return rows.map((r) => {
    const cancelUntil = r.starts_at - CANCEL_BEFORE_MS;
    return {
      id: r.id,
      status: r.status,
      course: { id: r.course_id, title: r.title },
      class: {
        id: r.class_id,
        starts_at: isoTime(r.starts_at),
        ends_at: isoTime(r.ends_at),
        timezone: r.timezone,
        location: r.location,
      },
      past: r.starts_at <= now,
      cancellable: now < cancelUntil,
      cancel_until: isoTime(cancelUntil),
    };
  });
}

interface ProfileChanges {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string | null;
  /** The page the confirmation link of a new email opens (the widget's page). */
  returnUrl?: string;
}

/** Only the fields sent change; each follows the registration form's rules. */
function validateProfile(body: Record<string, unknown>, key: WidgetKeyRow): ProfileChanges {
  const fields = unknownFields(body, ['first_name', 'last_name', 'email', 'phone', 'return_url']);
  const changes: ProfileChanges = {};
  const sent = (name: string) => Object.hasOwn(body, name);
  for (const name of ['first_name', 'last_name'] as const) {
    if (sent(name)) {
      const value = textField(body, name, fields, PERSON_TEXT[name]);
      if (value !== undefined) changes[name] = value;
    }
  }
  if (sent('email')) {
    const email = personEmail(body, fields);
    if (email !== undefined) changes.email = email;
  }
  if (sent('phone')) changes.phone = phoneField(body, 'phone', fields);
  const returnUrl = returnUrlField(body, key, fields, false);
  if (returnUrl !== undefined) changes.returnUrl = returnUrl;
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return changes;
}

/**
 * Names and phone change at once. A new email does not: it takes effect when a PIN or link sent to
 * it confirms it (else anyone signed in could take over another person's address and their
 * bookings), and the old address is told. The answer is the same whether or not another participant
 * already uses the new address; only that mailbox learns it.
 */
function updateProfile(
  db: Db,
  now: number,
  key: WidgetKeyRow,
  before: ParticipantRow,
  changes: ProfileChanges,
  rate: { limiter: RateLimiter; limits: typeof DEFAULT_LIMITS.emailChange },
) {
  // Read again inside the transaction: an earlier request may have changed it.
  const current = db
    .prepare('SELECT id, company_id, email, first_name, last_name, phone FROM participants WHERE id = ?')
    .get(before.id) as ParticipantRow;
  const { email, returnUrl, ...details } = changes;
  const next: ParticipantRow = { ...current, ...details };
  db.prepare('UPDATE participants SET first_name = ?, last_name = ?, phone = ? WHERE id = ?').run(
    next.first_name,
    next.last_name,
    next.phone,
    current.id,
  );
  // The organisers of upcoming classes see the new details; past records stay as they were.
  db.prepare(
    `UPDATE registrations SET first_name = ?, last_name = ?, phone = ?
     WHERE participant_id = ? AND status <> 'cancelled'
       AND class_id IN (SELECT id FROM classes WHERE starts_at > ?)`,
  ).run(next.first_name, next.last_name, next.phone, current.id, now);
  if (email !== undefined && email !== current.email) requestEmailChange(db, now, key, next, email, returnUrl, rate);
  return {
    status: 200,
    body: { participant: publicParticipant(next), email_change: pendingEmailChange(db, next, now) },
  };
}

function requestEmailChange(
  db: Db,
  now: number,
  key: WidgetKeyRow,
  p: ParticipantRow,
  email: string,
  returnUrl: string | undefined,
  { limiter, limits }: { limiter: RateLimiter; limits: typeof DEFAULT_LIMITS.emailChange },
): void {
  limiter.take(
    [
      { key: `email-change:participant:${p.id}`, ...limits.perParticipant },
      { key: `email-change:to:${email}`, ...limits.perRecipient },
    ],
    'changes of email',
  );
  // Only the newest request counts.
  db.prepare(`UPDATE pins SET replaced_at = ? WHERE kind = 'email' AND subject_id = ? AND used_at IS NULL AND replaced_at IS NULL`).run(
    now,
    p.id,
  );
  const expires = now + EMAIL_CHANGE_TTL_MS;
  const taken = findParticipant(db, p.company_id, email) !== undefined;
  const pin = newPin();
  // Taken: a PIN nobody knows, so that the requester sees the same as for a free address.
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO pins (kind, subject_id, email, company_id, pin_hash, expires_at) VALUES ('email', ?, ?, ?, ?, ?)`,
    )
    .run(p.id, email, p.company_id, taken ? sha256Hex(randomToken('decoy')) : emailChangePinHash(p, pin), expires);
  const company = key.company_name;
  if (taken) {
    queueEmail(db, now, {
      to: email,
      subject: `Someone asked to use this address at ${company}`,
      text: [
        'Hello,',
        '',
        `someone signed in at ${company} asked to make ${email} the address of their account.`,
        'This address already belongs to an account there, so nothing has changed.',
        '',
        'If you did not expect this, you can ignore this email.',
      ].join('\n'),
    });
  } else {
    let link: string | undefined;
    if (returnUrl !== undefined) {
      const url = new URL(returnUrl);
      url.searchParams.set('key', issueToken(db, now, p, { emailed: true, confirmsPin: Number(lastInsertRowid) }));
      link = url.href;
    }
    queueEmail(db, now, {
      to: email,
      subject: `Confirm your new email address at ${company}`,
      text: [
        `Hello ${p.first_name},`,
        '',
        `to make ${email} the address of your account at ${company}, enter this PIN where you changed it: ${pin}`,
        ...(link ? ['or open this link:', link] : []),
        '',
        `Both work for an hour (until ${isoTime(expires)}); the PIN for 5 tries.`,
        `Until then your account keeps its current address.`,
        '',
        'If you did not ask for this, ignore this email: nothing changes.',
      ].join('\n'),
      link: link ?? null,
      pin,
    });
  }
  queueEmail(db, now, {
    to: p.email,
    subject: `A change of your email address at ${company} was asked for`,
    text: [
      `Hello ${p.first_name},`,
      '',
      `someone signed in to your account at ${company} asked to change its email address to ${email}.`,
      'Nothing changes until that is confirmed from the new mailbox.',
      '',
      `If this was not you, sign in, check your details and sign out; or contact ${company}.`,
    ].join('\n'),
  });
}

/** Runs inside the idempotency transaction: the cancellation and the promotion are one unit. */
function cancelRegistration(db: Db, now: number, key: WidgetKeyRow, p: ParticipantRow, id: string) {
  const reg = db
    .prepare(
      `SELECT r.id, r.status, r.class_id, cl.starts_at, cl.timezone, cl.location, co.title
       FROM registrations r JOIN classes cl ON cl.id = r.class_id JOIN courses co ON co.id = cl.course_id
       WHERE r.id = ? AND r.participant_id = ? AND co.company_id = ?`,
    )
    .get(id, p.id, key.company_id) as
    | {
        id: string;
        status: 'confirmed' | 'waitlisted' | 'cancelled';
        class_id: string;
        starts_at: number;
        timezone: string;
        location: string;
        title: string;
      }
    | undefined;
  if (!reg) throw new ApiError(404, 'not-found', 'You have no registration with this id.');
  const answer = { status: 200, body: { registration: { id: reg.id, status: 'cancelled' } } };
  if (reg.status === 'cancelled') return answer;
  if (now >= reg.starts_at - CANCEL_BEFORE_MS) {
    throw new ApiError(
      409,
      'not-cancellable',
      reg.starts_at <= now
        ? 'This class has already started: it can no longer be cancelled.'
        : `This registration can no longer be cancelled here (only until 24 hours before the class starts): contact ${key.company_name}.`,
    );
  }
  db.prepare("UPDATE registrations SET status = 'cancelled', cancelled_at = ? WHERE id = ?").run(now, reg.id);
  const when = formatClassStart(reg.starts_at, reg.timezone);
  queueEmail(db, now, {
    to: p.email,
    subject: `Registration cancelled: ${reg.title}`,
    text: [
      `Hello ${p.first_name},`,
      '',
      `your ${reg.status === 'confirmed' ? 'place' : 'place on the waitlist'} in "${reg.title}" is cancelled.`,
      '',
      `When:  ${when} (${reg.timezone})`,
      `Where: ${reg.location}`,
      `Reference: ${reg.id}`,
      '',
      key.company_name,
    ].join('\n'),
  });
  if (reg.status === 'confirmed') promoteWaitlist(db, now, reg.class_id, reg.title, key.company_name);
  return answer;
}

/** Fills freed seats from the waitlist, first come first served, and tells each person. */
function promoteWaitlist(db: Db, now: number, classId: string, title: string, companyName: string): void {
  const cls = getClass(db, classId)!;
  let free = cls.capacity - cls.confirmed;
  const next = db.prepare(
    `SELECT id, first_name, email FROM registrations WHERE class_id = ? AND status = 'waitlisted'
     ORDER BY created_at, rowid LIMIT 1`,
  );
  while (free > 0) {
    const person = next.get(classId) as { id: string; first_name: string; email: string } | undefined;
    if (!person) break;
    db.prepare("UPDATE registrations SET status = 'confirmed' WHERE id = ?").run(person.id);
    queueEmail(db, now, {
      to: person.email,
      subject: `Registration confirmed: ${title}`,
      text: [
        `Hello ${person.first_name},`,
        '',
        `a place in "${title}" has freed up, and it is yours: you are no longer on the waitlist.`,
        '',
        `When:  ${formatClassStart(cls.starts_at, cls.timezone)} (${cls.timezone})`,
        `Where: ${cls.location}`,
        `Reference: ${person.id}`,
        '',
        companyName,
      ].join('\n'),
    });
    free -= 1;
  }
}
