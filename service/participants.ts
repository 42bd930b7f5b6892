/**
 * Participants' passwordless login and their own area (docs/widget-api.md, "Participants"): the
 * profile widget asks for an email, the service emails a PIN and a link whose `key` is a token,
 * and every later call sends that token in `X-Service-Token`. A participant belongs to one
 * company; so do their PINs and tokens.
 */
import type { Hono } from 'hono';
import { PIN_MAX_ATTEMPTS, PIN_TTL_MS, clientAddress, newPin, pinHash, sameHash } from './auth.ts';
import { readJsonObject } from './body.ts';
import { formatClassStart, getClass } from './catalog.ts';
import { isoTime, sendJson, type AppContext, type AppEnv, type ServiceDeps } from './context.ts';
import type { Db } from './db.ts';
import { ApiError, methodNotAllowed, validationError, type FieldErrors } from './errors.ts';
import { canonicalJson, runIdempotent } from './idempotency.ts';
import { randomToken, sha256Hex } from './ids.ts';
import { originAllowed } from './origins.ts';
import { queueEmail, queueSignInEmail } from './outbox.ts';
import { RateLimiter } from './rate-limit.ts';
import { RATE_LIMITS } from './rest-api.ts';
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
export const PARTICIPANT_LOGIN_LIMITS = RATE_LIMITS.login;

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
  const { clock } = deps;
  const P = `${WIDGET_API_PREFIX}/participant`;
  const limiter = new RateLimiter(clock);
  deps.onReset.add(() => limiter.reset());

  app.post(`${P}/login`, async (c) => {
    const key = widgetKey(db, c, 'profile');
    const body = await readJsonObject(c);
    const fields = unknownFields(body, ['email', 'return_url']);
    const email = personEmail(body, fields);
    const returnUrl = returnUrlField(body, key, fields);
    if (Object.keys(fields).length > 0) throw validationError(fields);
    // Counted for every email alike, so that a refusal tells nobody whether the email exists.
    const rules = PARTICIPANT_LOGIN_LIMITS;
    limiter.take([
      { key: `participant-login:address:${clientAddress(c)}`, ...rules.perAddress },
      { key: `participant-login:email:${key.company_id}:${email}`, ...rules.perEmail },
    ]);

    const participant = findParticipant(db, key.company_id, email!);
    if (participant) {
      db.transaction(() => {
        const now = clock.now();
        replacePins(db, participant, now);
        const pin = newPin();
        db.prepare(
          `INSERT INTO pins (kind, subject_id, email, company_id, pin_hash, expires_at)
           VALUES ('participant', ?, ?, ?, ?, ?)`,
        ).run(participant.id, participant.email, key.company_id, participantPinHash(participant, pin), now + PIN_TTL_MS);
        const link = new URL(returnUrl!);
        link.searchParams.set('key', issueToken(db, now, participant));
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
        const now = clock.now();
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
    const pin = body.pin;
    if (typeof pin !== 'string' || !/^\d{6}$/.test(pin)) {
      fields.pin = 'Enter the 6 digits of the PIN from the email.';
    }
    if (Object.keys(fields).length > 0) throw validationError(fields);

    const now = clock.now();
    // The attempt is decided and counted in one transaction (parallel guesses cannot share a try),
    // and the refusal is thrown after it commits, so that the count stays.
    const outcome = db.transaction(() => checkPin(db, key.company_id, email!, pin as string, now)).immediate();
    if (outcome.ok) return sendJson({ token: outcome.token, participant: publicParticipant(outcome.participant) });
    throw outcome.error;
  });

  app.post(`${P}/me`, (c) => {
    const key = widgetKey(db, c);
    const participant = requireParticipant(db, c, key, clock.now());
    return sendJson({
      widget: widgetInfo(key),
      participant: publicParticipant(participant),
      registrations: participantRegistrations(db, participant, clock.now()),
    });
  });

  app.post(`${P}/profile`, async (c) => {
    const key = widgetKey(db, c);
    const participant = requireParticipant(db, c, key, clock.now());
    const idempotencyKey = requireIdempotencyKey(c);
    const body = await readJsonObject(c);
    const changes = validateProfile(body);
    const result = runIdempotent(db, {
      scope: `widget:${key.key}:participant:${participant.id}`,
      key: idempotencyKey,
      requestHash: sha256Hex(`POST ${P}/profile\n${canonicalJson(body)}`),
      now: clock.now(),
      create: () => updateProfile(db, clock.now(), participant, changes),
    });
    return sendJson(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
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

  for (const path of ['login', 'verify', 'me', 'profile', 'registrations/:id/cancel', 'logout']) {
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
function returnUrlField(body: Record<string, unknown>, key: WidgetKeyRow, fields: FieldErrors): string | undefined {
  const value = body.return_url;
  if (value === undefined || value === null || value === '') {
    fields.return_url = 'Send return_url: the address of the page that holds the widget (the emailed link opens it).';
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

function participantPinHash(p: { company_id: string; email: string }, pin: string): string {
  return pinHash(`${p.company_id}:${p.email}`, pin);
}

/** A newer login, or a new email address, retires every PIN still waiting. */
function replacePins(db: Db, p: ParticipantRow, now: number): void {
  db.prepare(
    `UPDATE pins SET replaced_at = ? WHERE kind = 'participant' AND subject_id = ?
     AND used_at IS NULL AND replaced_at IS NULL`,
  ).run(now, p.id);
}

function issueToken(db: Db, now: number, p: ParticipantRow): string {
  const token = randomToken('ptok');
  db.prepare(
    `INSERT INTO tokens (hash, kind, subject_id, email, company_id, created_at)
     VALUES (?, 'participant', ?, ?, ?, ?)`,
  ).run(sha256Hex(token), p.id, p.email, p.company_id, now);
  return token;
}

type PinOutcome = { ok: true; token: string; participant: ParticipantRow } | { ok: false; error: ApiError };

interface PinRow {
  id: number;
  subject_id: string;
  pin_hash: string;
  expires_at: number;
  attempts: number;
  used_at: number | null;
  replaced_at: number | null;
}

function checkPin(db: Db, companyId: string, email: string, pin: string, now: number): PinOutcome {
  const fail = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) => ({
    ok: false as const,
    error: new ApiError(status, code, message, { pin: message }, {}, extra),
  });
  const rows = db
    .prepare(
      `SELECT id, subject_id, pin_hash, expires_at, attempts, used_at, replaced_at FROM pins
       WHERE kind = 'participant' AND company_id = ? AND email = ? ORDER BY id DESC LIMIT 20`,
    )
    .all(companyId, email) as PinRow[];
  const hash = pinHash(`${companyId}:${email}`, pin);
  const replacedMatch = rows.some((r) => r.replaced_at !== null && sameHash(hash, r.pin_hash));
  const replaced = () =>
    fail(401, 'pin-missing', 'This PIN was replaced by a newer one: enter the PIN from the latest email.');
  const current = rows.find((r) => r.replaced_at === null);
  if (!current) {
    return replacedMatch
      ? replaced()
      : fail(401, 'pin-missing', 'No PIN was sent to this email: ask for a new one.');
  }
  if (current.used_at !== null) {
    return fail(401, 'pin-used', 'This PIN was already used to sign in: ask for a new one.');
  }
  if (current.attempts >= PIN_MAX_ATTEMPTS) {
    return fail(429, 'pin-locked', 'This PIN was entered wrong 5 times and no longer works: ask for a new one.');
  }
  if (current.expires_at <= now) {
    return fail(401, 'pin-expired', 'This PIN has expired (a PIN is valid for 5 minutes): ask for a new one.');
  }
  if (sameHash(hash, current.pin_hash)) {
    const participant = db
      .prepare(
        'SELECT id, company_id, email, first_name, last_name, phone FROM participants WHERE id = ? AND company_id = ?',
      )
      .get(current.subject_id, companyId) as ParticipantRow | undefined;
    if (!participant) return fail(401, 'pin-missing', 'No PIN was sent to this email: ask for a new one.');
    db.prepare('UPDATE pins SET used_at = ? WHERE id = ?').run(now, current.id);
    return { ok: true, token: issueToken(db, now, participant), participant };
  }
  // An old PIN from an earlier email is not a guess: say which email to use, and count nothing.
  if (replacedMatch) return replaced();
  const attempts = current.attempts + 1;
  db.prepare('UPDATE pins SET attempts = ? WHERE id = ?').run(attempts, current.id);
  if (attempts >= PIN_MAX_ATTEMPTS) {
    return fail(429, 'pin-locked', 'This PIN was entered wrong 5 times and no longer works: ask for a new one.');
  }
  const left = PIN_MAX_ATTEMPTS - attempts;
  return fail(
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

/** The participant of the `X-Service-Token`, of the key's company, or 401 `invalid-token`. */
function requireParticipant(db: Db, c: AppContext, key: WidgetKeyRow, now: number): ParticipantRow {
  const hash = tokenHash(c);
  const row =
    hash === undefined
      ? undefined
      : (db
          .prepare(
            `SELECT p.id, p.company_id, p.email, p.first_name, p.last_name, p.phone
             FROM tokens t JOIN participants p ON p.id = t.subject_id AND p.company_id = t.company_id
             WHERE t.hash = ? AND t.kind = 'participant' AND t.invalidated_at IS NULL
               AND t.company_id = ? AND t.created_at > ?`,
          )
          .get(hash, key.company_id, now - PARTICIPANT_TOKEN_TTL_MS) as ParticipantRow | undefined);
  if (!row) {
    throw new ApiError(
      401,
      'invalid-token',
      hash === undefined
        ? 'Sign in first: send the token of the sign-in in the X-Service-Token header.'
        : 'This sign-in is no longer valid (signed out, expired or revoked): sign in again.',
    );
  }
  return row;
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
}

/** Only the fields sent change; each follows the registration form's rules. */
function validateProfile(body: Record<string, unknown>): ProfileChanges {
  const fields = unknownFields(body, ['first_name', 'last_name', 'email', 'phone']);
  const changes: ProfileChanges = {};
  for (const name of ['first_name', 'last_name'] as const) {
    if (name in body) {
      const value = textField(body, name, fields, PERSON_TEXT[name]);
      if (value !== undefined) changes[name] = value;
    }
  }
  if ('email' in body) {
    const email = personEmail(body, fields);
    if (email !== undefined) changes.email = email;
  }
  if ('phone' in body) changes.phone = phoneField(body, 'phone', fields);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return changes;
}

function updateProfile(db: Db, now: number, before: ParticipantRow, changes: ProfileChanges) {
  // Read again inside the transaction: an earlier request may have changed it.
  const current = db
    .prepare('SELECT id, company_id, email, first_name, last_name, phone FROM participants WHERE id = ?')
    .get(before.id) as ParticipantRow;
  const next: ParticipantRow = { ...current, ...changes };
  if (next.email !== current.email) {
    const taken = db
      .prepare('SELECT 1 FROM participants WHERE company_id = ? AND email = ? AND id <> ?')
      .get(current.company_id, next.email, current.id);
    if (taken) {
      throw new ApiError(409, 'email-taken', 'Another participant already uses this email address.', {
        email: 'Another participant already uses this email address: enter another one.',
      });
    }
    // The tokens follow the person (so that invalidating by email still finds them); PINs sent
    // to the old address stop working.
    db.prepare("UPDATE tokens SET email = ? WHERE kind = 'participant' AND subject_id = ?").run(next.email, current.id);
    replacePins(db, current, now);
  }
  db.prepare('UPDATE participants SET email = ?, first_name = ?, last_name = ?, phone = ? WHERE id = ?').run(
    next.email,
    next.first_name,
    next.last_name,
    next.phone,
    current.id,
  );
  // The organisers of upcoming classes see the new details; past records stay as they were.
  db.prepare(
    `UPDATE registrations SET email = ?, first_name = ?, last_name = ?, phone = ?
     WHERE participant_id = ? AND status <> 'cancelled'
       AND class_id IN (SELECT id FROM classes WHERE starts_at > ?)`,
  ).run(next.email, next.first_name, next.last_name, next.phone, current.id, now);
  return { status: 200, body: { participant: publicParticipant(next) } };
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
