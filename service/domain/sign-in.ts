/**
 * The one passwordless sign-in, for the REST API's users and the widget API's participants alike:
 * a login emails a 6-digit PIN and a link whose `key` is a token, the PIN is exchanged for a token,
 * and every later call sends a token. PINs and tokens live in one pair of tables (`sign_in_pins`,
 * `sign_in_tokens`), stored only as hashes, per audience and realm: a user signs in to an
 * application, a participant to a company. What differs between the two audiences is said here,
 * once: how long a token lives, how it is spelt, and whether answers name why a PIN failed.
 */
import { randomInt } from 'node:crypto';
import { randomToken, sameHash, sha256Hex } from '../core/ids.ts';
import { queueEmail } from '../core/outbox.ts';
import { signInEmail } from './emails.ts';
import type { MailLocale } from './format.ts';
import { Refusal } from '../core/refusal.ts';
import type { Db, Tx } from '../db/database.ts';

export type Audience = 'user' | 'participant';

/** Where an account signs in: a user to an application (`realm` is its id), a participant to a company (its id). */
export interface Realm {
  audience: Audience;
  realm: number;
}

/** An account of a realm (a user's id, a participant's id) and its email now. */
export interface Account extends Realm {
  id: string;
  email: string;
}

const HOUR = 60 * 60 * 1000;
/** A PIN is valid for 5 minutes of the service clock, once, for 5 tries. */
export const PIN_TTL_MS = 5 * 60 * 1000;
export const PIN_MAX_ATTEMPTS = 5;
/**
 * An emailed link's token that has never been used dies after an hour of the service clock; its
 * first use within the hour makes it an ordinary token (long-lived for REST users, 30 days for
 * participants). A link lying in a mailbox for months must not open an account.
 */
export const LINK_TTL_MS = HOUR;
/** A participant token dies 30 days after it was issued (sessionStorage usually forgets it sooner). */
export const PARTICIPANT_TOKEN_TTL_MS = 30 * 24 * HOUR;

/** How long a token lives: a user's until it is invalidated (the REST API has no refresh), a participant's 30 days. */
const TOKEN_TTL_MS: Record<Audience, number | null> = { user: null, participant: PARTICIPANT_TOKEN_TTL_MS };
/** A token names its audience, so that a person who finds one in a log knows what it opens. */
const TOKEN_PREFIX: Record<Audience, string> = { user: 'tok', participant: 'ptok' };
/**
 * Whether answers name why a PIN failed. Participants' do (`pin-missing`, `pin-used`, ...), so a PIN
 * of an earlier email that a newer one replaced is named as such and counts no try. The REST API
 * answers `invalid-pin` to every failure (its specification), so such a PIN is judged against the
 * newest like any other guess.
 */
const NAMES_OLD_PINS: Record<Audience, boolean> = { user: false, participant: true };

// Tokens

/**
 * A token of the account. `emailed`: the key of a link in an email, which dies unused after
 * LINK_TTL_MS; `confirmsPin`: the link of an email change, whose first use also confirms it.
 */
export async function issueToken(
  db: Db,
  now: number,
  account: Account,
  /** `ttlMs`: a lifetime other than the audience's (the service app's session). */
  opts: { emailed?: boolean; confirmsPin?: number; ttlMs?: number } = {},
): Promise<string> {
  const token = randomToken(TOKEN_PREFIX[account.audience]);
  const ttl = opts.ttlMs ?? TOKEN_TTL_MS[account.audience];
  await db
    .insertInto('sign_in_tokens')
    .values({
      hash: sha256Hex(token),
      audience: account.audience,
      realm: account.realm,
      account: account.id,
      email: account.email,
      created_at: now,
      expires_at: ttl === null ? null : now + ttl,
      invalidated_at: null,
      emailed: opts.emailed ? 1 : 0,
      used_at: null,
      confirms_pin: opts.confirmsPin ?? null,
    })
    .execute();
  return token;
}

export interface TokenRow {
  account: string;
  email: string;
  emailed: 0 | 1;
  used_at: number | null;
  confirms_pin: number | null;
}

/**
 * The token of this hash in the realm while it is valid: not invalidated, not expired, and, for an
 * emailed link never used, younger than LINK_TTL_MS.
 */
export function validToken(db: Db, hash: string, realm: Realm, now: number): Promise<TokenRow | undefined> {
  return db
    .selectFrom('sign_in_tokens')
    .select(['account', 'email', 'emailed', 'used_at', 'confirms_pin'])
    .where('hash', '=', hash)
    .where('audience', '=', realm.audience)
    .where('realm', '=', realm.realm)
    .where('invalidated_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) => eb.or([eb('emailed', '=', 0), eb('used_at', 'is not', null), eb('created_at', '>', now - LINK_TTL_MS)]))
    .executeTakeFirst();
}

/**
 * The first use of an emailed link's token: marked used, so that it lives on like any token. False
 * when another call marked it first (two first uses at once, of which one does what follows).
 */
export async function markLinkUsed(db: Db, hash: string, now: number): Promise<boolean> {
  const marked = await db
    .updateTable('sign_in_tokens')
    .set({ used_at: now })
    .where('hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/** Ends one token (signing out). */
export async function invalidateToken(db: Db, hash: string, now: number): Promise<void> {
  await db.updateTable('sign_in_tokens').set({ invalidated_at: now }).where('hash', '=', hash).execute();
}

/** Ends one token, or every token of an email, of either audience; answers how many were valid until now. */
export async function invalidateTokens(db: Db, by: { token?: string; email?: string }, now: number): Promise<number> {
  const result = await db
    .updateTable('sign_in_tokens')
    .set({ invalidated_at: now })
    .where('invalidated_at', 'is', null)
    .$if(by.token !== undefined, (q) => q.where('hash', '=', sha256Hex(by.token!)))
    .$if(by.email !== undefined, (q) => q.where('email', '=', by.email!.toLowerCase()))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The account's tokens follow it to its new email (so that invalidating by email still finds them). */
export async function moveTokens(tx: Tx, account: Account, email: string): Promise<void> {
  await tx
    .updateTable('sign_in_tokens')
    .set({ email })
    .where('audience', '=', account.audience)
    .where('realm', '=', account.realm)
    .where('account', '=', account.id)
    .execute();
}

// PINs

export type PinPurpose = 'sign-in' | 'email-change';

/**
 * The PINs one check is judged against: a sign-in's, by the email it was sent to; an email
 * change's, by the account that asked for it (sent to the new address).
 */
export type Pins = Realm & ({ purpose: 'sign-in'; email: string } | { purpose: 'email-change'; account: string });

export interface PinRow {
  id: number;
  /** Whose PIN it is; null: a decoy for an email that is nobody's. */
  account: string | null;
  /** Where it was sent. */
  email: string;
  pin_hash: string;
  expires_at: number;
  attempts: number;
  used_at: number | null;
  replaced_at: number | null;
}

const PIN_COLUMNS = ['id', 'account', 'email', 'pin_hash', 'expires_at', 'attempts', 'used_at', 'replaced_at'] as const;

/** What a participant is told when a check has no PIN to judge, and how long such a PIN lives. */
const PIN_WORDS: Record<PinPurpose, { noneSent: string; validFor: string }> = {
  'sign-in': { noneSent: 'No PIN was sent to this email: ask for a new one.', validFor: '5 minutes' },
  'email-change': {
    noneSent: 'No change of email is waiting: change your email in your details first.',
    validFor: 'an hour',
  },
};

const subject = (pins: Pins) => (pins.purpose === 'sign-in' ? pins.email : pins.account);
/** The hash of a PIN names whose and what for, so that a PIN is right for nothing else. */
const pinHash = (pins: Pins, pin: string) =>
  sha256Hex(`pin:${pins.audience}:${pins.realm}:${pins.purpose}:${subject(pins)}:${pin}`);

const pinsOf = (db: Db, pins: Pins) =>
  db
    .selectFrom('sign_in_pins')
    .where('audience', '=', pins.audience)
    .where('realm', '=', pins.realm)
    .where('purpose', '=', pins.purpose)
    .where(pins.purpose === 'sign-in' ? 'email' : 'account', '=', subject(pins));

/** Every PIN of `pins` still waiting is replaced: only the newest counts. */
export async function retirePins(tx: Tx, now: number, pins: Pins): Promise<void> {
  await tx
    .updateTable('sign_in_pins')
    .set({ replaced_at: now })
    .where('audience', '=', pins.audience)
    .where('realm', '=', pins.realm)
    .where('purpose', '=', pins.purpose)
    .where(pins.purpose === 'sign-in' ? 'email' : 'account', '=', subject(pins))
    .where('used_at', 'is', null)
    .where('replaced_at', 'is', null)
    .execute();
}

async function storePin(
  tx: Tx,
  now: number,
  pins: Pins,
  pin: { account: string | null; email: string; ttlMs: number; hash: string },
): Promise<number> {
  await retirePins(tx, now, pins);
  const row = await tx
    .insertInto('sign_in_pins')
    .values({
      audience: pins.audience,
      realm: pins.realm,
      purpose: pins.purpose,
      account: pin.account,
      email: pin.email,
      pin_hash: pin.hash,
      expires_at: now + pin.ttlMs,
      used_at: null,
      replaced_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new PIN of `pins` for `account`, sent to `email`; it replaces the PINs still waiting. */
export async function issuePin(
  tx: Tx,
  now: number,
  pins: Pins,
  pin: { account: string; email: string; ttlMs: number },
): Promise<{ id: number; pin: string }> {
  const value = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { id: await storePin(tx, now, pins, { ...pin, hash: pinHash(pins, value) }), pin: value };
}

/**
 * A PIN nobody knows, in place of a real one (a login for an email that is nobody's, an email
 * change to an address that is taken): checking it answers exactly as for a real PIN (`pin-wrong`,
 * then `pin-locked` or `pin-expired`), so that nothing tells whether the email belongs to someone.
 */
export function issueDecoyPin(
  tx: Tx,
  now: number,
  pins: Pins,
  pin: { account: string | null; email: string; ttlMs: number },
): Promise<number> {
  return storePin(tx, now, pins, { ...pin, hash: sha256Hex(randomToken('decoy')) });
}

/** The PIN of `pins` still waiting (not used, not replaced, not expired), or the one of that id. */
export function waitingPin(db: Db, pins: Pins, now: number, id?: number): Promise<PinRow | undefined> {
  return pinsOf(db, pins)
    .select(PIN_COLUMNS)
    .$if(id !== undefined, (q) => q.where('id', '=', id!))
    .where('used_at', 'is', null)
    .where('replaced_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The right PIN did its work: it works once. */
export async function usePin(tx: Tx, id: number, now: number): Promise<void> {
  await tx.updateTable('sign_in_pins').set({ used_at: now }).where('id', '=', id).execute();
}

/** A PIN refused, and whether it was a wrong guess (a try counted), which the limits count per email. */
export interface PinRefused {
  refused: Refusal;
  wrong: boolean;
}

const pinRefusal = (kind: 'unauthorized' | 'locked', code: string, message: string, extra: Record<string, unknown> = {}) =>
  new Refusal(kind, code, message, { fields: { pin: message }, extra });
const refused = (refusal: Refusal, wrong = false): PinRefused => ({ refused: refusal, wrong });

/** `pin-missing`: no PIN of `pins` to judge (the right PIN of an account that is gone is none either). */
export const noPinSent = (pins: Pins): PinRefused =>
  refused(pinRefusal('unauthorized', 'pin-missing', PIN_WORDS[pins.purpose].noneSent));

/**
 * Judges a PIN against the newest PINs of `pins`, counting a wrong try, in this order:
 * `pin-missing`, `pin-used`, `pin-locked`, `pin-expired`, then the right PIN's row or `pin-wrong`
 * (with `attempts_left`; the fifth wrong try is `pin-locked` at once). The try is decided and
 * counted in the caller's transaction, so that parallel guesses cannot share one; a refusal is
 * returned, not thrown, so that the count commits.
 */
export async function judgePin(tx: Tx, now: number, pins: Pins, pin: string): Promise<PinRow | PinRefused> {
  const rows = await pinsOf(tx, pins).select(PIN_COLUMNS).orderBy('id', 'desc').limit(20).execute();
  const hash = pinHash(pins, pin);
  const replacedMatch = NAMES_OLD_PINS[pins.audience] && rows.some((r) => r.replaced_at !== null && sameHash(hash, r.pin_hash));
  const replaced = () =>
    refused(
      pinRefusal('unauthorized', 'pin-missing', 'This PIN was replaced by a newer one: enter the PIN from the latest email.'),
    );
  const locked = () =>
    pinRefusal('locked', 'pin-locked', 'This PIN was entered wrong 5 times and no longer works: ask for a new one.');
  const current = rows.find((r) => r.replaced_at === null);
  if (!current) return replacedMatch ? replaced() : noPinSent(pins);
  if (current.used_at !== null)
    return refused(pinRefusal('unauthorized', 'pin-used', 'This PIN was already used: ask for a new one.'));
  if (current.attempts >= PIN_MAX_ATTEMPTS) return refused(locked());
  if (current.expires_at <= now) {
    const validFor = PIN_WORDS[pins.purpose].validFor;
    return refused(
      pinRefusal('unauthorized', 'pin-expired', `This PIN has expired (a PIN is valid for ${validFor}): ask for a new one.`),
    );
  }
  if (sameHash(hash, current.pin_hash)) return current;
  // An old PIN from an earlier email is not a guess: say which email to use, and count nothing.
  if (replacedMatch) return replaced();
  const attempts = current.attempts + 1;
  await tx.updateTable('sign_in_pins').set({ attempts }).where('id', '=', current.id).execute();
  if (attempts >= PIN_MAX_ATTEMPTS) return refused(locked(), true);
  const left = PIN_MAX_ATTEMPTS - attempts;
  return refused(
    pinRefusal(
      'unauthorized',
      'pin-wrong',
      `This PIN is not right: check the email and try again (${left} ${left === 1 ? 'try' : 'tries'} left).`,
      { attempts_left: left },
    ),
    true,
  );
}

/**
 * The sign-in email, the same for REST users and participants: the link (its `key` is a token; none
 * for an application without a page of its own) and the PIN, valid for 5 minutes. `place` completes
 * "sign in to …" in the email's language.
 */
export function queueSignInEmail(
  db: Db,
  now: number,
  to: { email: string; first_name: string },
  {
    name,
    place,
    link,
    pin,
    locale = 'en',
    fromName,
  }: { name: string; place: string; link: string | null; pin: string; locale?: MailLocale; fromName?: string },
): Promise<void> {
  return queueEmail(
    db,
    now,
    signInEmail(locale, {
      email: to.email,
      first_name: to.first_name,
      name,
      place,
      link,
      pin,
      ...(fromName ? { fromName } : {}),
    }),
  );
}
