/**
 * The REST API's applications, users and their sign-in (domain/sign-in.ts: a user signs in to an
 * application), and the classes as the roles see them.
 */
import { isoTime, sha256Hex } from '../../core/ids.ts';
import type { Db, Tx } from '../../db/database.ts';
import { lecturersOf, publicClass, type ClassRow } from '../../domain/classes.ts';
import {
  issuePin,
  invalidateToken,
  issueToken as issueSignInToken,
  judgePin,
  markLinkUsed,
  usePin,
  validToken,
  type Account,
  type Pins,
} from '../../domain/sign-in.ts';
import { APP_API_KEY, APP_APPLICATION_ID, type CompanyRole, type RestClass } from '../../../contract/api/rest.ts';
import type { Role } from './tables.ts';

export interface AppRow {
  id: number;
  company_id: number | null;
  name: string;
  client_secret_hash: string;
  login_link: string;
  /** The service's own app: of no company, serving every company (its users' tokens only as a cookie). */
  first_party?: true;
}

/**
 * The service's own app (`/app/`, contract `APP_API_KEY`): no row of `applications`, since no
 * company owns it. Its users are every user with a role in some company; it has no client secret,
 * and its emailed link opens the app, whose session lasts APP_SESSION_TTL_MS.
 */
export const FIRST_PARTY_APP: AppRow = {
  id: APP_APPLICATION_ID,
  company_id: null,
  name: 'Service widgets',
  client_secret_hash: '',
  login_link: '/app/',
  first_party: true,
};
/** An app session ends 7 days after its sign-in: the app then asks for a new PIN. */
export const APP_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface UserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
}

export async function findApplication(db: Db, apiKey: string): Promise<AppRow | undefined> {
  if (apiKey === APP_API_KEY) return FIRST_PARTY_APP;
  return db
    .selectFrom('applications')
    .select(['id', 'company_id', 'name', 'client_secret_hash', 'login_link'])
    .where('api_key_hash', '=', sha256Hex(apiKey))
    .executeTakeFirst();
}

/** A valid user with a role in at least one company the application serves. */
export function findUser(db: Db, application: AppRow, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name'])
    .where('u.email', '=', email)
    .where('u.valid', '=', 1)
    .where(({ exists, selectFrom }) =>
      exists(
        application.first_party
          ? selectFrom('memberships as m').select('m.user_id').whereRef('m.user_id', '=', 'u.id')
          : selectFrom('memberships as m')
              .innerJoin('application_companies as ac', 'ac.company_id', 'm.company_id')
              .select('m.user_id')
              .whereRef('m.user_id', '=', 'u.id')
              .where('ac.application_id', '=', application.id),
      ),
    )
    .executeTakeFirst();
}

/** The companies the user holds a role in, of those the application serves (its own first). */
export async function userCompanies(db: Db, application: AppRow, userId: number): Promise<CompanyRole[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('companies as co', 'co.id', 'm.company_id')
    .$if(!application.first_party, (q) =>
      q.innerJoin('application_companies as ac', (j) =>
        j.onRef('ac.company_id', '=', 'm.company_id').on('ac.application_id', '=', application.id),
      ),
    )
    .select(['co.id', 'co.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .execute();
  const own = (c: { id: number }) => (c.id === application.company_id ? 0 : 1);
  return rows
    .map((r) => ({ id: r.id, name: r.name, role: r.role as Role }))
    .sort((a, b) => own(a) - own(b) || a.name.localeCompare(b.name, 'en'));
}

const userAccount = (user: UserRow, application: AppRow): Account => ({
  audience: 'user',
  realm: application.id,
  id: String(user.id),
  email: user.email,
});

const signInPins = (application: AppRow, email: string): Pins => ({
  audience: 'user',
  realm: application.id,
  purpose: 'sign-in',
  email,
});

export function issueToken(
  db: Db,
  now: number,
  user: UserRow,
  application: AppRow,
  opts: { emailed?: boolean } = {},
): Promise<string> {
  // An app session ends; a REST application's token lives until it is invalidated (no refresh).
  const ttl = application.first_party && !opts.emailed ? { ttlMs: APP_SESSION_TTL_MS } : {};
  return issueSignInToken(db, now, userAccount(user, application), { ...opts, ...ttl });
}

/** A new login's PIN (it replaces the previous one) and the token of its link. */
export async function startLogin(
  tx: Tx,
  now: number,
  user: UserRow,
  application: AppRow,
  pinTtlMs: number,
): Promise<{ pin: string; token: string }> {
  const { pin } = await issuePin(tx, now, signInPins(application, user.email), {
    account: String(user.id),
    email: user.email,
    ttlMs: pinTtlMs,
  });
  return { pin, token: await issueToken(tx, now, user, application, { emailed: true }) };
}

/**
 * The token for a right PIN; else whether it was a wrong guess (a try counted), or no PIN to judge
 * (none, used, expired or locked). The REST API says `invalid-pin` to each: the reason stays here.
 */
export async function verifyPin(
  tx: Tx,
  now: number,
  application: AppRow,
  email: string,
  pin: string,
): Promise<{ token: string } | { wrong: boolean }> {
  const judged = await judgePin(tx, now, signInPins(application, email), pin);
  if ('refused' in judged) return { wrong: judged.wrong };
  // The user may have been disabled, or lost every role, since the PIN was sent.
  const user = await findUser(tx, application, email);
  if (!user) return { wrong: false };
  await usePin(tx, judged.id, now);
  return { token: await issueToken(tx, now, user, application) };
}

/**
 * The user of a token of this application. An emailed link's token never used within LINK_TTL_MS is
 * dead; its first use keeps it. The user may have been disabled, or lost every role, since.
 */
export async function userOfToken(db: Db, application: AppRow, hash: string, now: number): Promise<UserRow | undefined> {
  const token = await validToken(db, hash, { audience: 'user', realm: application.id }, now);
  if (!token) return undefined;
  // The app's session is never an emailed link's token: that one is exchanged once (appSessionOfLink).
  if (application.first_party && token.emailed === 1) return undefined;
  if (token.emailed === 1 && token.used_at === null) await markLinkUsed(db, hash, now);
  return findUser(db, application, token.email);
}

/**
 * The service app's emailed link, exchanged once for a session: its token (which stood in an
 * address bar) dies, and a new one, never shown to the page, is the session's. Undefined: a link
 * used, expired, of another application, or of a user who has since lost every role.
 */
export async function appSessionOfLink(tx: Tx, now: number, hash: string): Promise<string | undefined> {
  const token = await validToken(tx, hash, { audience: 'user', realm: FIRST_PARTY_APP.id }, now);
  if (!token || token.emailed !== 1 || token.used_at !== null) return undefined;
  if (!(await markLinkUsed(tx, hash, now))) return undefined;
  await invalidateToken(tx, hash, now);
  const user = await findUser(tx, FIRST_PARTY_APP, token.email);
  return user && issueToken(tx, now, user, FIRST_PARTY_APP);
}

export async function lecturerClassIds(db: Db, userId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('class_lecturers').select('class_id').where('user_id', '=', userId).execute();
  return new Set(rows.map((r) => r.class_id));
}

/**
 * Classes as the REST API shows them: with their numbers and lecturers, and who booked them when
 * shown. Two queries for all of them, whatever their number.
 */
export async function restClasses(db: Db, classes: readonly ClassRow[], showParticipants: boolean): Promise<RestClass[]> {
  if (classes.length === 0) return [];
  const ids = classes.map((cl) => cl.id);
  const lecturers = await lecturersOf(db, ids);
  const participants = showParticipants
    ? await db
        .selectFrom('registrations as r')
        .leftJoin('orders as o', 'o.id', 'r.order_id')
        .select([
          'r.class_id',
          'r.id',
          'r.first_name',
          'r.last_name',
          'r.email',
          'r.phone',
          'r.status',
          'r.created_at',
          'r.order_id',
        ])
        .select('o.status as order_status')
        .where('r.class_id', 'in', ids)
        .where('r.status', 'in', ['confirmed', 'waitlisted'])
        .orderBy('r.created_at')
        .orderBy('r.id')
        .execute()
    : [];
  const booked = new Map<string, typeof participants>();
  for (const r of participants) {
    if (booked.has(r.class_id)) booked.get(r.class_id)!.push(r);
    else booked.set(r.class_id, [r]);
  }
  return classes.map((cl) => {
    const { held_until: _held, ...shown } = publicClass(cl);
    const base = {
      ...shown,
      registrations: { confirmed: cl.confirmed, waitlisted: cl.waitlisted },
      lecturers: lecturers.get(cl.id) ?? [],
    };
    if (!showParticipants) return base;
    return {
      ...base,
      participants: (booked.get(cl.id) ?? []).map((r) => ({
        registration_id: r.id,
        first_name: r.first_name,
        last_name: r.last_name,
        email: r.email,
        phone: r.phone,
        // A seat held for an order whose payment has not come is not yet confirmed.
        status: r.order_status === 'pending_payment' ? ('pending_payment' as const) : (r.status as 'confirmed' | 'waitlisted'),
        registered_at: isoTime(r.created_at),
        order_id: r.order_id,
      })),
    };
  });
}
