/**
 * The participant a token signs in (a widget API call's `X-Service-Token`: the participants' area,
 * the videos, an order read back): of the key's company, while the token is valid. The token of an
 * emailed link must be used within LINK_TTL_MS; its first use keeps it, and, for the link of an
 * email change, confirms that change.
 */
import type { Db, Store, Tx } from '../db/database.ts';
import { applyEmailChange, changePins } from './email-change.ts';
import { PARTICIPANT_COLUMNS, findParticipant, type ParticipantRow } from './participants.ts';
import { markLinkUsed, validToken, waitingPin, type TokenRow } from './sign-in.ts';
import type { WidgetKeyRow } from './widget-keys.ts';

/** The participant of a valid token of the company, with what the token says of its link. */
export async function participantOfToken(
  db: Db,
  hash: string,
  companyId: number,
  now: number,
): Promise<(ParticipantRow & Pick<TokenRow, 'emailed' | 'used_at' | 'confirms_pin'>) | undefined> {
  const token = await validToken(db, hash, { audience: 'participant', realm: companyId }, now);
  if (!token) return undefined;
  const participant = await db
    .selectFrom('participants')
    .select(PARTICIPANT_COLUMNS)
    .where('id', '=', token.account)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return participant && { ...participant, emailed: token.emailed, used_at: token.used_at, confirms_pin: token.confirms_pin };
}

/**
 * The first use of an emailed link's token: marked used (two first uses at once confirm once) and,
 * for the link of an email change, that change confirmed. Undefined: the change it confirms was
 * replaced or confirmed already, so the link no longer signs in.
 */
async function firstUseOfLink(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  hash: string,
  participant: ParticipantRow,
  confirmsPin: number | null,
): Promise<ParticipantRow | undefined> {
  if (!(await markLinkUsed(tx, hash, now))) {
    return (await findParticipant(tx, participant.company_id, participant.email)) ?? participant;
  }
  if (confirmsPin === null) return participant;
  const pin = await waitingPin(tx, changePins(participant), now, confirmsPin);
  return pin ? applyEmailChange(tx, now, key, participant, pin) : undefined;
}

/** The participant the token of this hash signs in with a key of their company, or undefined. */
export async function signedInParticipant(
  store: Store,
  now: number,
  key: WidgetKeyRow,
  hash: string,
): Promise<ParticipantRow | undefined> {
  const row = await participantOfToken(store.db, hash, key.company_id, now);
  if (!row) return undefined;
  const { emailed, used_at, confirms_pin, ...participant } = row;
  if (emailed === 0 || used_at !== null) return participant;
  return store.transaction((tx) => firstUseOfLink(tx, now, key, hash, participant, confirms_pin));
}
