/**
 * Participants, their PINs and tokens, and what they do in their own area. Functions that take a
 * `Tx` run inside the caller's transaction.
 */
import { LINK_TTL_MS, PIN_MAX_ATTEMPTS, newPin, pinHash, sameHash } from '../../core/auth.ts';
import { isoTime, randomToken, sha256Hex } from '../../core/ids.ts';
import { queueEmail } from '../../core/outbox.ts';
import type { Limits, RateLimiter } from '../../core/rate-limit.ts';
import type { Db, Tx } from '../../db/database.ts';
import { ApiError } from '../../http/errors.ts';
import { formatClassStart } from '../../domain/format.ts';
import {
  PARTICIPANT_COLUMNS,
  findParticipant,
  publicParticipant,
  upcomingRegistrations,
  type ParticipantRow,
} from '../../domain/participants.ts';
import { promoteWaitlist } from '../../domain/waitlist.ts';
import type { WidgetKeyRow } from '../../domain/widget-keys.ts';
import type {
  CancelResponse,
  EmailChange,
  ParticipantRegistration,
  ParticipantResponse,
} from '../../../contract/api/participants.ts';

const HOUR = 60 * 60 * 1000;
/** A participant token dies 30 days after it was issued (sessionStorage usually forgets it sooner). */
export const PARTICIPANT_TOKEN_TTL_MS = 30 * 24 * HOUR;
/** A registration can be cancelled until this long before its class starts. */
export const CANCEL_BEFORE_MS = 24 * HOUR;
/**
 * The PIN and the link that confirm a new email address work this long (and the PIN for 5 tries):
 * the participant has to switch to the other mailbox first.
 */
export const EMAIL_CHANGE_TTL_MS = LINK_TTL_MS;

export type { ParticipantRow };
export { publicParticipant };

export const participantPinHash = (p: { company_id: number; email: string }, pin: string) =>
  pinHash(`${p.company_id}:${p.email}`, pin);
const emailChangePinHash = (p: { company_id: number; id: string }, pin: string) => pinHash(`email:${p.company_id}:${p.id}`, pin);

/** A newer login, or a new email address, retires every sign-in PIN still waiting. */
async function replaceSignInPins(tx: Tx, p: ParticipantRow, now: number): Promise<void> {
  await tx
    .updateTable('participant_pins')
    .set({ replaced_at: now })
    .where('kind', '=', 'sign-in')
    .where('participant_id', '=', p.id)
    .where('used_at', 'is', null)
    .where('replaced_at', 'is', null)
    .execute();
}

/**
 * A token of the participant. `emailed`: the key of a link in an email, which dies unused after
 * LINK_TTL_MS; `confirmsPin`: its first use also confirms that email change.
 */
export async function issueToken(
  tx: Db,
  now: number,
  p: ParticipantRow,
  opts: { emailed?: boolean; confirmsPin?: number } = {},
): Promise<string> {
  const token = randomToken('ptok');
  await tx
    .insertInto('participant_tokens')
    .values({
      hash: sha256Hex(token),
      participant_id: p.id,
      email: p.email,
      company_id: p.company_id,
      created_at: now,
      invalidated_at: null,
      emailed: opts.emailed ? 1 : 0,
      used_at: null,
      confirms_pin: opts.confirmsPin ?? null,
    })
    .execute();
  return token;
}

/** A login's PIN and link for a participant; a PIN nobody knows for a stranger (see the route). */
export async function startSignIn(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  email: string,
  send: (participant: ParticipantRow, pin: string, token: string) => Promise<void>,
  pinTtlMs: number,
): Promise<void> {
  const participant = await findParticipant(tx, key.company_id, email);
  if (participant) {
    await replaceSignInPins(tx, participant, now);
    const pin = newPin();
    await insertPin(tx, {
      kind: 'sign-in',
      participant_id: participant.id,
      email: participant.email,
      company_id: key.company_id,
      pin_hash: participantPinHash(participant, pin),
      expires_at: now + pinTtlMs,
    });
    await send(participant, pin, await issueToken(tx, now, participant, { emailed: true }));
    return;
  }
  // A stranger gets a PIN nobody knows, so that verifying answers exactly as for a participant
  // (`pin-wrong`, then `pin-locked` or `pin-expired`) and tells nobody whether the email exists.
  await tx
    .updateTable('participant_pins')
    .set({ replaced_at: now })
    .where('kind', '=', 'sign-in')
    .where('participant_id', 'is', null)
    .where('company_id', '=', key.company_id)
    .where('email', '=', email)
    .where('replaced_at', 'is', null)
    .execute();
  await insertPin(tx, {
    kind: 'sign-in',
    participant_id: null,
    email,
    company_id: key.company_id,
    pin_hash: sha256Hex(randomToken('decoy')),
    expires_at: now + pinTtlMs,
  });
}

async function insertPin(
  tx: Tx,
  pin: {
    kind: 'sign-in' | 'email';
    participant_id: string | null;
    email: string;
    company_id: number;
    pin_hash: string;
    expires_at: number;
  },
): Promise<number> {
  const row = await tx
    .insertInto('participant_pins')
    .values({ ...pin, used_at: null, replaced_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

interface PinRow {
  id: number;
  participant_id: string | null;
  email: string;
  pin_hash: string;
  expires_at: number;
  attempts: number;
  used_at: number | null;
  replaced_at: number | null;
}

const PIN_COLUMNS = ['id', 'participant_id', 'email', 'pin_hash', 'expires_at', 'attempts', 'used_at', 'replaced_at'] as const;

const pinError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(status, code, message, { pin: message }, {}, extra);

/** A PIN refused, and whether it was a wrong guess (a try counted), which the limits count per email. */
export interface PinRefused {
  refused: ApiError;
  wrong: boolean;
}
const refused = (error: ApiError, wrong = false): PinRefused => ({ refused: error, wrong });

/**
 * Judges a PIN against the PINs sent for one purpose (newest first), counting a wrong try, in this
 * order: `pin-missing`, `pin-used`, `pin-locked`, `pin-expired`, then the right PIN's row or
 * `pin-wrong`. A PIN of an earlier email that a newer one replaced is `pin-missing` and no try.
 */
async function judgePin(
  tx: Tx,
  rows: PinRow[],
  hash: string,
  now: number,
  { noneSent, validFor }: { noneSent: string; validFor: string },
): Promise<PinRow | PinRefused> {
  const replacedMatch = rows.some((r) => r.replaced_at !== null && sameHash(hash, r.pin_hash));
  const replaced = () =>
    refused(pinError(401, 'pin-missing', 'This PIN was replaced by a newer one: enter the PIN from the latest email.'));
  const locked = () => pinError(429, 'pin-locked', 'This PIN was entered wrong 5 times and no longer works: ask for a new one.');
  const current = rows.find((r) => r.replaced_at === null);
  if (!current) return replacedMatch ? replaced() : refused(pinError(401, 'pin-missing', noneSent));
  if (current.used_at !== null) return refused(pinError(401, 'pin-used', 'This PIN was already used: ask for a new one.'));
  if (current.attempts >= PIN_MAX_ATTEMPTS) return refused(locked());
  if (current.expires_at <= now) {
    return refused(pinError(401, 'pin-expired', `This PIN has expired (a PIN is valid for ${validFor}): ask for a new one.`));
  }
  if (sameHash(hash, current.pin_hash)) return current;
  // An old PIN from an earlier email is not a guess: say which email to use, and count nothing.
  if (replacedMatch) return replaced();
  const attempts = current.attempts + 1;
  await tx.updateTable('participant_pins').set({ attempts }).where('id', '=', current.id).execute();
  if (attempts >= PIN_MAX_ATTEMPTS) return refused(locked(), true);
  const left = PIN_MAX_ATTEMPTS - attempts;
  return refused(
    pinError(
      401,
      'pin-wrong',
      `This PIN is not right: check the email and try again (${left} ${left === 1 ? 'try' : 'tries'} left).`,
      { attempts_left: left },
    ),
    true,
  );
}

/**
 * The sign-in PIN for a token. The attempt is decided and counted in the caller's transaction
 * (parallel guesses cannot share a try); a refusal is returned, not thrown, so that the count commits.
 */
export async function verifySignInPin(
  tx: Tx,
  now: number,
  companyId: number,
  email: string,
  pin: string,
): Promise<{ token: string; participant: ParticipantRow } | PinRefused> {
  const rows = await tx
    .selectFrom('participant_pins')
    .select(PIN_COLUMNS)
    .where('kind', '=', 'sign-in')
    .where('company_id', '=', companyId)
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  const judged = await judgePin(tx, rows, pinHash(`${companyId}:${email}`, pin), now, {
    noneSent: 'No PIN was sent to this email: ask for a new one.',
    validFor: '5 minutes',
  });
  if ('refused' in judged) return judged;
  const participant =
    judged.participant_id === null
      ? undefined
      : await tx
          .selectFrom('participants')
          .select(PARTICIPANT_COLUMNS)
          .where('id', '=', judged.participant_id)
          .where('company_id', '=', companyId)
          .executeTakeFirst();
  if (!participant) return refused(pinError(401, 'pin-missing', 'No PIN was sent to this email: ask for a new one.'));
  await tx.updateTable('participant_pins').set({ used_at: now }).where('id', '=', judged.id).execute();
  return { token: await issueToken(tx, now, participant), participant };
}

/** The PIN sent to a new address, judged like a sign-in PIN; right, it confirms the change. */
export async function confirmEmailChangeByPin(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  participant: ParticipantRow,
  pin: string,
): Promise<ParticipantRow | PinRefused> {
  const rows = await tx
    .selectFrom('participant_pins')
    .select(PIN_COLUMNS)
    .where('kind', '=', 'email')
    .where('participant_id', '=', participant.id)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  const judged = await judgePin(tx, rows, emailChangePinHash(participant, pin), now, {
    noneSent: 'No change of email is waiting: change your email in your details first.',
    validFor: 'an hour',
  });
  if ('refused' in judged) return judged;
  return applyEmailChange(tx, now, key, participant, judged);
}

/**
 * The participant of a token hash, of the key's company, still valid: not invalidated, younger than
 * 30 days, and, for an emailed link never used, younger than an hour.
 */
export async function participantOfToken(db: Db, hash: string, companyId: number, now: number) {
  return db
    .selectFrom('participant_tokens as t')
    .innerJoin('participants as p', (j) => j.onRef('p.id', '=', 't.participant_id').onRef('p.company_id', '=', 't.company_id'))
    .select([
      'p.id',
      'p.company_id',
      'p.email',
      'p.first_name',
      'p.last_name',
      'p.phone',
      't.emailed',
      't.used_at',
      't.confirms_pin',
    ])
    .where('t.hash', '=', hash)
    .where('t.invalidated_at', 'is', null)
    .where('t.company_id', '=', companyId)
    .where('t.created_at', '>', now - PARTICIPANT_TOKEN_TTL_MS)
    .where((eb) => eb.or([eb('t.emailed', '=', 0), eb('t.used_at', 'is not', null), eb('t.created_at', '>', now - LINK_TTL_MS)]))
    .executeTakeFirst();
}

/**
 * The first use of an emailed link's token: marked used (two first uses at once confirm once) and,
 * for the link of an email change, that change confirmed. Undefined: the change it confirms was
 * replaced or confirmed already, so the link no longer signs in.
 */
export async function firstUseOfLink(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  hash: string,
  participant: ParticipantRow,
  confirmsPin: number | null,
): Promise<ParticipantRow | undefined> {
  const marked = await tx
    .updateTable('participant_tokens')
    .set({ used_at: now })
    .where('hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) === 0)
    return (await findParticipant(tx, participant.company_id, participant.email)) ?? participant;
  if (confirmsPin === null) return participant;
  const pin = await tx
    .selectFrom('participant_pins')
    .select(PIN_COLUMNS)
    .where('id', '=', confirmsPin)
    .where('kind', '=', 'email')
    .where('participant_id', '=', participant.id)
    .where('used_at', 'is', null)
    .where('replaced_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return pin ? applyEmailChange(tx, now, key, participant, pin) : undefined;
}

export async function invalidateToken(db: Db, hash: string, now: number): Promise<void> {
  await db.updateTable('participant_tokens').set({ invalidated_at: now }).where('hash', '=', hash).execute();
}

/** The change of email waiting for its confirmation, if any. */
export async function pendingEmailChange(db: Db, p: ParticipantRow, now: number): Promise<EmailChange> {
  const row = await db
    .selectFrom('participant_pins')
    .select(['email', 'expires_at'])
    .where('kind', '=', 'email')
    .where('participant_id', '=', p.id)
    .where('used_at', 'is', null)
    .where('replaced_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', PIN_MAX_ATTEMPTS)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { email: row.email, expires_at: isoTime(row.expires_at) } : null;
}

/**
 * Makes a confirmed new address the participant's: the tokens follow the person (so that
 * invalidating by email still finds them), sign-in PINs sent to the old address stop working,
 * upcoming registrations follow, and the old address is told.
 */
async function applyEmailChange(tx: Tx, now: number, key: WidgetKeyRow, p: ParticipantRow, pin: PinRow): Promise<ParticipantRow> {
  const taken = await tx
    .selectFrom('participants')
    .select('id')
    .where('company_id', '=', p.company_id)
    .where('email', '=', pin.email)
    .where('id', '<>', p.id)
    .executeTakeFirst();
  if (taken) {
    throw new ApiError(409, 'email-taken', 'Another participant already uses this email address.', {
      email: 'Another participant already uses this email address: keep your address, or use another one.',
    });
  }
  await tx.updateTable('participant_pins').set({ used_at: now }).where('id', '=', pin.id).execute();
  await tx.updateTable('participant_tokens').set({ email: pin.email }).where('participant_id', '=', p.id).execute();
  await replaceSignInPins(tx, p, now);
  await tx.updateTable('participants').set({ email: pin.email }).where('id', '=', p.id).execute();
  await upcomingRegistrations(tx, p.id, now).set({ email: pin.email }).execute();
  await queueEmail(tx, now, {
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

export async function participantRegistrations(db: Db, p: ParticipantRow, now: number): Promise<ParticipantRegistration[]> {
  const rows = await db
    .selectFrom('registrations as r')
    .innerJoin('classes as cl', 'cl.id', 'r.class_id')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .select([
      'r.id',
      'r.status',
      'co.id as course_id',
      'co.title',
      'cl.id as class_id',
      'cl.starts_at',
      'cl.ends_at',
      'cl.timezone',
      'cl.location',
    ])
    .where('r.participant_id', '=', p.id)
    .where('co.company_id', '=', p.company_id)
    .where('r.status', '<>', 'cancelled')
    // The seats of the participant's orders are listed under `orders`.
    .where('r.order_id', 'is', null)
    .orderBy('cl.starts_at')
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute();
  return rows.map((r) => {
    const cancelUntil = r.starts_at - CANCEL_BEFORE_MS;
    return {
      id: r.id,
      status: r.status as 'confirmed' | 'waitlisted',
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

export interface ProfileChanges {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string | null;
  /** The page the confirmation link of a new email opens (the widget's page). */
  returnUrl?: string;
}

/**
 * Names and phone change at once. A new email does not: it takes effect when a PIN or link sent to
 * it confirms it (else anyone signed in could take over another person's address and their
 * bookings), and the old address is told. The answer is the same whether or not another participant
 * already uses the new address; only that mailbox learns it.
 */
export async function updateProfile(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  before: ParticipantRow,
  changes: ProfileChanges,
  rate: { limiter: RateLimiter; limits: Limits['emailChange'] },
): Promise<{ status: number; body: ParticipantResponse }> {
  // Read again inside the transaction: an earlier request may have changed it.
  const current = await tx
    .selectFrom('participants')
    .select(PARTICIPANT_COLUMNS)
    .where('id', '=', before.id)
    .executeTakeFirstOrThrow();
  const { email, returnUrl, ...details } = changes;
  const next: ParticipantRow = { ...current, ...details };
  const fields = { first_name: next.first_name, last_name: next.last_name, phone: next.phone };
  await tx.updateTable('participants').set(fields).where('id', '=', current.id).execute();
  // The organisers of upcoming classes see the new details; past records stay as they were. The
  // seats of the participant's orders keep their attendees' names; their phone is the buyer's.
  await upcomingRegistrations(tx, current.id, now)
    .set({ first_name: next.first_name, last_name: next.last_name })
    .where('order_id', 'is', null)
    .execute();
  await upcomingRegistrations(tx, current.id, now).set({ phone: next.phone }).execute();
  if (email !== undefined && email !== current.email) await requestEmailChange(tx, now, key, next, email, returnUrl, rate);
  return {
    status: 200,
    body: { participant: publicParticipant(next), email_change: await pendingEmailChange(tx, next, now) },
  };
}

async function requestEmailChange(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  p: ParticipantRow,
  email: string,
  returnUrl: string | undefined,
  { limiter, limits }: { limiter: RateLimiter; limits: Limits['emailChange'] },
): Promise<void> {
  limiter.take(
    [
      { key: `email-change:participant:${p.id}`, ...limits.perParticipant },
      { key: `email-change:to:${email}`, ...limits.perRecipient },
    ],
    'changes of email',
  );
  // Only the newest request counts.
  await tx
    .updateTable('participant_pins')
    .set({ replaced_at: now })
    .where('kind', '=', 'email')
    .where('participant_id', '=', p.id)
    .where('used_at', 'is', null)
    .where('replaced_at', 'is', null)
    .execute();
  const expires = now + EMAIL_CHANGE_TTL_MS;
  const taken = (await findParticipant(tx, p.company_id, email)) !== undefined;
  const pin = newPin();
  // Taken: a PIN nobody knows, so that the requester sees the same as for a free address.
  const pinId = await insertPin(tx, {
    kind: 'email',
    participant_id: p.id,
    email,
    company_id: p.company_id,
    pin_hash: taken ? sha256Hex(randomToken('decoy')) : emailChangePinHash(p, pin),
    expires_at: expires,
  });
  const company = key.company_name;
  if (taken) {
    await queueEmail(tx, now, {
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
      url.searchParams.set('key', await issueToken(tx, now, p, { emailed: true, confirmsPin: pinId }));
      link = url.href;
    }
    await queueEmail(tx, now, {
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
  await queueEmail(tx, now, {
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

/** The cancellation and the promotion from the waitlist are one unit (the caller's transaction). */
export async function cancelRegistration(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  p: ParticipantRow,
  id: string,
): Promise<{ status: number; body: CancelResponse }> {
  const reg = await tx
    .selectFrom('registrations as r')
    .innerJoin('classes as cl', 'cl.id', 'r.class_id')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .select(['r.id', 'r.status', 'r.class_id', 'r.order_id', 'cl.starts_at', 'cl.timezone', 'cl.location', 'co.title'])
    .where('r.id', '=', id)
    .where('r.participant_id', '=', p.id)
    .where('co.company_id', '=', key.company_id)
    .executeTakeFirst();
  if (!reg) throw new ApiError(404, 'not-found', 'You have no registration with this id.');
  const answer = { status: 200, body: { registration: { id: reg.id, status: 'cancelled' as const } } };
  if (reg.status === 'cancelled') return answer;
  if (reg.order_id !== null) {
    // A seat of an order was paid for with the others: the company changes an order, not this call.
    throw new ApiError(
      409,
      'not-cancellable',
      `This seat belongs to an order: contact ${key.company_name} to change it, quoting the order number.`,
    );
  }
  if (now >= reg.starts_at - CANCEL_BEFORE_MS) {
    throw new ApiError(
      409,
      'not-cancellable',
      reg.starts_at <= now
        ? 'This class has already started: it can no longer be cancelled.'
        : `This registration can no longer be cancelled here (only until 24 hours before the class starts): contact ${key.company_name}.`,
    );
  }
  await tx.updateTable('registrations').set({ status: 'cancelled', cancelled_at: now }).where('id', '=', reg.id).execute();
  await queueEmail(tx, now, {
    to: p.email,
    subject: `Registration cancelled: ${reg.title}`,
    text: [
      `Hello ${p.first_name},`,
      '',
      `your ${reg.status === 'confirmed' ? 'place' : 'place on the waitlist'} in "${reg.title}" is cancelled.`,
      '',
      `When:  ${formatClassStart(reg.starts_at, reg.timezone)} (${reg.timezone})`,
      `Where: ${reg.location}`,
      `Reference: ${reg.id}`,
      '',
      key.company_name,
    ].join('\n'),
  });
  if (reg.status === 'confirmed') await promoteWaitlist(tx, now, reg.class_id, reg.title, key.company_name);
  return answer;
}
