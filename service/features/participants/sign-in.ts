/**
 * A participant's login: a PIN and a link for a participant of the key's company, a PIN nobody knows
 * for an email that is nobody's (domain/sign-in.ts), so that neither login nor verify tells whether
 * an email belongs to a participant.
 */
import type { Tx } from '../../db/database.ts';
import { PARTICIPANT_COLUMNS, findParticipant, participantAccount, type ParticipantRow } from '../../domain/participants.ts';
import {
  issueDecoyPin,
  issuePin,
  issueToken,
  judgePin,
  noPinSent,
  usePin,
  type PinRefused,
  type Pins,
} from '../../domain/sign-in.ts';
import type { WidgetKeyRow } from '../../domain/widget-keys.ts';

const signInPins = (companyId: number, email: string): Pins => ({
  audience: 'participant',
  realm: companyId,
  purpose: 'sign-in',
  email,
});

/** A login's PIN and link for a participant (`send` emails them); a PIN nobody knows for a stranger. */
export async function startSignIn(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  email: string,
  send: (participant: ParticipantRow, pin: string, token: string) => Promise<void>,
  pinTtlMs: number,
): Promise<void> {
  const pins = signInPins(key.company_id, email);
  const participant = await findParticipant(tx, key.company_id, email);
  if (!participant) {
    // Verifying then answers exactly as for a participant (`pin-wrong`, then `pin-locked` or `pin-expired`).
    await issueDecoyPin(tx, now, pins, { account: null, email, ttlMs: pinTtlMs });
    return;
  }
  const { pin } = await issuePin(tx, now, pins, { account: participant.id, email: participant.email, ttlMs: pinTtlMs });
  await send(participant, pin, await issueToken(tx, now, participantAccount(participant), { emailed: true }));
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
  const pins = signInPins(companyId, email);
  const judged = await judgePin(tx, now, pins, pin);
  if ('refused' in judged) return judged;
  const participant =
    judged.account === null
      ? undefined
      : await tx
          .selectFrom('participants')
          .select(PARTICIPANT_COLUMNS)
          .where('id', '=', judged.account)
          .where('company_id', '=', companyId)
          .executeTakeFirst();
  if (!participant) return noPinSent(pins);
  await usePin(tx, judged.id, now);
  return { token: await issueToken(tx, now, participantAccount(participant)), participant };
}
