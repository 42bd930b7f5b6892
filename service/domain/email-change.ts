/**
 * A participant's change of email: it takes effect only when a PIN or a link sent to the new
 * address confirms it (else anyone signed in could take over another person's address and their
 * bookings), and the old address is told. The participants' area asks for it and confirms it by
 * PIN; any call signed in with the link's token confirms it by link (signed-in.ts).
 */
import { isoTime } from '../core/ids.ts';
import { queueEmail } from '../core/outbox.ts';
import type { Limits, RateLimiter } from '../core/rate-limit.ts';
import { Refusal } from '../core/refusal.ts';
import { say } from '../../contract/api/words.ts';
import type { Db, Tx } from '../db/database.ts';
import { addressChangedEmail, addressTakenEmail, changeAskedEmail, confirmAddressEmail } from './emails.ts';
import { findParticipant, localeOf, participantAccount, upcomingRegistrations, type ParticipantRow } from './participants.ts';
import {
  LINK_TTL_MS,
  PIN_MAX_ATTEMPTS,
  issueDecoyPin,
  issuePin,
  issueToken,
  judgePin,
  moveTokens,
  retirePins,
  usePin,
  waitingPin,
  type PinRefused,
  type PinRow,
  type Pins,
} from './sign-in.ts';
import type { WidgetKeyRow } from './widget-keys.ts';
import type { EmailChange } from '../../contract/api/participants.ts';

/**
 * The PIN and the link that confirm a new email address work this long (and the PIN for 5 tries):
 * the participant has to switch to the other mailbox first.
 */
export const EMAIL_CHANGE_TTL_MS = LINK_TTL_MS;

/** What the participant reads beside the email field (contract/api/words.ts). */
const EMAIL_TAKEN = say(
  'Another participant already uses this email address: keep your address, or use another one.',
  'Eine andere Person verwendet diese E-Mail-Adresse schon: Behalten Sie Ihre Adresse, oder verwenden Sie eine andere.',
);

/** The PINs of a participant's change of email, sent to the new address. */
export const changePins = (p: ParticipantRow): Pins => ({
  audience: 'participant',
  realm: p.company_id,
  purpose: 'email-change',
  account: p.id,
});

/**
 * Asks for a new email: a PIN (and, with `returnUrl`, a link whose token confirms and signs in) to
 * the new address, word of it to the old one. The answer is the same whether or not another
 * participant already uses the new address; only that mailbox learns it.
 */
export async function requestEmailChange(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  p: ParticipantRow,
  email: string,
  returnUrl: string | undefined,
  { limiter, limits }: { limiter: RateLimiter; limits: Limits['emailChange'] },
): Promise<void> {
  await limiter.take(
    [
      { key: `email-change:participant:${p.id}`, ...limits.perParticipant },
      { key: `email-change:to:${email}`, ...limits.perRecipient },
    ],
    'changes of email',
  );
  const taken = (await findParticipant(tx, p.company_id, email)) !== undefined;
  // Only the newest request counts (a new PIN replaces the ones waiting). Taken: a PIN nobody knows,
  // so that the requester sees the same as for a free address.
  const pending = { account: p.id, email, ttlMs: EMAIL_CHANGE_TTL_MS };
  const issued = taken ? undefined : await issuePin(tx, now, changePins(p), pending);
  if (!issued) await issueDecoyPin(tx, now, changePins(p), pending);
  const company = key.company_name;
  const locale = await localeOf(tx, p.id);
  if (!issued) {
    await queueEmail(tx, now, addressTakenEmail(locale, { to: email, company }));
  } else {
    let link: string | null = null;
    if (returnUrl !== undefined) {
      const url = new URL(returnUrl);
      url.searchParams.set('key', await issueToken(tx, now, participantAccount(p), { emailed: true, confirmsPin: issued.id }));
      link = url.href;
    }
    await queueEmail(
      tx,
      now,
      confirmAddressEmail(locale, { to: email, first_name: p.first_name, company, link, pin: issued.pin }),
    );
  }
  await queueEmail(tx, now, changeAskedEmail(locale, { to: p.email, first_name: p.first_name, company, newAddress: email }));
}

/** The PIN sent to a new address, judged like a sign-in PIN; right, it confirms the change. */
export async function confirmEmailChangeByPin(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  participant: ParticipantRow,
  pin: string,
): Promise<ParticipantRow | PinRefused> {
  const judged = await judgePin(tx, now, changePins(participant), pin);
  if ('refused' in judged) return judged;
  return applyEmailChange(tx, now, key, participant, judged);
}

/** The change of email waiting for its confirmation, if any. */
export async function pendingEmailChange(db: Db, p: ParticipantRow, now: number): Promise<EmailChange> {
  const row = await waitingPin(db, changePins(p), now);
  // A PIN used up by wrong tries waits for nothing (its link would still confirm: it is no guess).
  return row && row.attempts < PIN_MAX_ATTEMPTS ? { email: row.email, expires_at: isoTime(row.expires_at) } : null;
}

/**
 * Makes a confirmed new address the participant's: the tokens follow the person (so that
 * invalidating by email still finds them), sign-in PINs sent to the old address stop working,
 * upcoming registrations follow, and the old address is told.
 */
export async function applyEmailChange(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  p: ParticipantRow,
  pin: PinRow,
): Promise<ParticipantRow> {
  const taken = await tx
    .selectFrom('participants')
    .select('id')
    .where('company_id', '=', p.company_id)
    .where('email', '=', pin.email)
    .where('id', '<>', p.id)
    .executeTakeFirst();
  if (taken) {
    throw new Refusal('conflict', 'email-taken', 'Another participant already uses this email address.', {
      fields: { email: EMAIL_TAKEN },
    });
  }
  await usePin(tx, pin.id, now);
  await moveTokens(tx, participantAccount(p), pin.email);
  await retirePins(tx, now, { audience: 'participant', realm: p.company_id, purpose: 'sign-in', email: p.email });
  await tx.updateTable('participants').set({ email: pin.email }).where('id', '=', p.id).execute();
  await upcomingRegistrations(tx, p.id, now).set({ email: pin.email }).execute();
  await queueEmail(
    tx,
    now,
    addressChangedEmail(await localeOf(tx, p.id), {
      to: p.email,
      first_name: p.first_name,
      company: key.company_name,
      newAddress: pin.email,
    }),
  );
  return { ...p, email: pin.email };
}
