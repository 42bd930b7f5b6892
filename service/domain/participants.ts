/**
 * The people who book classes, per company: found by email, created by the first form or order
 * that names them, shown to themselves.
 */
import { randomId } from '../core/ids.ts';
import type { Db, Tables, Tx } from '../db/database.ts';
import type { MailLocale } from './format.ts';
import type { Account } from './sign-in.ts';
import type { Participant } from '../../contract/api/participants.ts';

export type ParticipantRow = Omit<Tables['participants'], 'created_at' | 'locale'>;

/**
 * A participant may cancel their own place (in their account, the profile widget) until this long
 * before its class starts; the registration's answer says until when.
 */
export const CANCEL_BEFORE_MS = 24 * 60 * 60 * 1000;

export const PARTICIPANT_COLUMNS = ['id', 'company_id', 'email', 'first_name', 'last_name', 'phone'] as const;

export function findParticipant(db: Db, companyId: number, email: string): Promise<ParticipantRow | undefined> {
  return db
    .selectFrom('participants')
    .select(PARTICIPANT_COLUMNS)
    .where('company_id', '=', companyId)
    .where('email', '=', email)
    .executeTakeFirst();
}

/**
 * The id of the company's participant of `person.email`, created from the form or order if new.
 * An existing participant's profile is never rewritten: anybody can type anybody's email.
 */
export async function participantFor(
  tx: Tx,
  now: number,
  companyId: number,
  person: { email: string; first_name: string; last_name: string; phone: string | null; locale: string },
): Promise<string> {
  const existing = await findParticipant(tx, companyId, person.email);
  if (existing) return existing.id;
  const id = randomId('p');
  const { email, first_name, last_name, phone, locale } = person;
  await tx
    .insertInto('participants')
    .values({ id, company_id: companyId, email, first_name, last_name, phone, locale, created_at: now })
    .execute();
  return id;
}

/** The participant as the sign-in knows them: an account of their company. */
export const participantAccount = (p: ParticipantRow): Account => ({
  audience: 'participant',
  realm: p.company_id,
  id: p.id,
  email: p.email,
});

export function publicParticipant(p: ParticipantRow): Participant {
  return { id: p.id, first_name: p.first_name, last_name: p.last_name, email: p.email, phone: p.phone };
}

/** Upcoming registrations (not cancelled) of the participant: the organisers see what changed. */
export const upcomingRegistrations = (tx: Tx, participantId: string, now: number) =>
  tx
    .updateTable('registrations')
    .where('participant_id', '=', participantId)
    .where('status', '<>', 'cancelled')
    .where('class_id', 'in', (eb) => eb.selectFrom('classes').select('id').where('starts_at', '>', now));

/** The language a participant is written to in: the widget's they last signed in or changed their details through. */
export async function localeOf(db: Db, participantId: string): Promise<MailLocale> {
  const row = await db.selectFrom('participants').select('locale').where('id', '=', participantId).executeTakeFirst();
  return row?.locale === 'de' ? 'de' : 'en';
}

/** Keeps the language of a signed-in participant's widget (never of an anonymous form: anybody can type anybody's email). */
export async function rememberLocale(db: Db, participantId: string, locale: MailLocale): Promise<void> {
  await db.updateTable('participants').set({ locale }).where('id', '=', participantId).execute();
}
