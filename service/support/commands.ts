/**
 * What support and operators do to a store (docs/service.md, "What support runs"): create a company
 * with its owner and REST application (the specification: "the REST key and client secret come from
 * support"), import and export its catalogue, make widget keys and change their origins, end a
 * person's sign-ins. The command line (cli.ts) and the tests call these; each runs in one transaction.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomId, randomToken, sha256Hex } from '../core/ids.ts';
import type { WidgetType } from '../core/widget-types.ts';
import { WIDGET_TYPES } from '../core/widget-types.ts';
import type { Db, Tx } from '../db/database.ts';
import { invalidateTokens } from '../domain/sign-in.ts';
import { getClass } from '../domain/classes.ts';
import { checkOrigins, insertWidget } from '../domain/widgets.ts';
import { localDay } from '../core/time-zones.ts';
import { Catalogue, UNSAFE_CHARACTERS, catalogueProblems, type CatalogueInput } from './catalogue.ts';

/** A command that cannot be done as asked: every problem, each saying how to fix it. */
export class SupportError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'SupportError';
  }
}

export interface NewCompany {
  name: string;
  ownerEmail: string;
  ownerFirstName: string;
  ownerLastName: string;
  /** Where contact messages go (default: the owner's email). */
  contactEmail?: string;
  /** ISO 4217 (default EUR). */
  currency?: string;
  /** VAT in percent (default 0). */
  vatRate?: number;
  /** Whether class prices include the VAT (default: true). */
  pricesIncludeTax?: boolean;
  /** The page the REST application's emailed sign-in link opens (absolute); without one, the email holds the PIN only. */
  loginLink?: string;
}

export interface CreatedCompany {
  company_id: number;
  public_id: string;
  owner_user_id: number;
  application_id: number;
  /** Shown once: only their hashes are stored. */
  api_key: string;
  client_secret: string;
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

const nextId = async (db: Db, table: 'companies' | 'users' | 'applications', from: number) => {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Math.max(from, Number(row?.id ?? 0) + 1);
};

/** A company, its owner (a user already known keeps their other companies) and its REST application. */
export async function createCompany(db: Db, input: NewCompany): Promise<CreatedCompany> {
  const problems: string[] = [];
  const name = input.name.trim();
  if (!name || name.length > 200 || UNSAFE_CHARACTERS.test(name) || /[\r\n\t]/.test(name)) {
    problems.push(
      '--name: the company’s name, 1 to 200 characters of plain text (no control characters, none that turn the writing direction around).',
    );
  }
  const email = input.ownerEmail.trim().toLowerCase();
  if (!EMAIL.test(email)) problems.push('--owner-email: the owner’s email address, such as olivia@acme.example.');
  for (const [flag, value] of [
    ['--owner-first-name', input.ownerFirstName],
    ['--owner-last-name', input.ownerLastName],
  ] as const) {
    if (!value.trim() || value.length > 100 || !/\p{L}/u.test(value) || UNSAFE_CHARACTERS.test(value) || /[\r\n\t]/.test(value)) {
      problems.push(`${flag}: a name with at least one letter, of plain text.`);
    }
  }
  const contact = (input.contactEmail ?? email).trim().toLowerCase();
  // Without --contact-email it is the owner's, already said above if wrong.
  if (input.contactEmail !== undefined && !EMAIL.test(contact))
    problems.push('--contact-email: the address contact messages are sent to, such as office@acme.example.');
  const currency = (input.currency ?? 'EUR').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) problems.push('--currency: an ISO 4217 code, such as EUR.');
  const vat = input.vatRate ?? 0;
  if (!(vat >= 0 && vat <= 100) || Math.abs(Math.round(vat * 100) - vat * 100) > 1e-9) {
    problems.push('--vat: the VAT rate in percent, from 0 to 100 with at most two decimals (19 for 19 %, 8.25 for 8.25 %).');
  }
  if (input.loginLink !== undefined && !/^https?:\/\/[^\s]+$/.test(input.loginLink)) {
    problems.push('--login-link: the absolute http(s) address of the page the emailed sign-in link opens.');
  }
  if (problems.length) throw new SupportError(problems);

  return db.transaction().execute(async (tx) => {
    const id = await nextId(tx, 'companies', 1);
    const slug =
      name
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 30) || 'company';
    let publicId = `c_${slug}`;
    for (let n = 2; await tx.selectFrom('companies').select('id').where('public_id', '=', publicId).executeTakeFirst(); n++) {
      publicId = `c_${slug}_${n}`;
    }
    await tx
      .insertInto('companies')
      .values({
        id,
        public_id: publicId,
        name,
        contact_email: contact,
        vat_rate_bp: Math.round(vat * 100),
        prices_include_tax: input.pricesIncludeTax === false ? 0 : 1,
        currency,
        order_prefix: await freeOrderPrefix(tx, name),
      })
      .execute();

    const known = await tx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    const ownerId = known?.id ?? (await nextId(tx, 'users', 101));
    if (!known) {
      await tx
        .insertInto('users')
        .values({
          id: ownerId,
          email,
          first_name: input.ownerFirstName.trim(),
          last_name: input.ownerLastName.trim(),
          valid: 1,
        })
        .execute();
    }
    await tx.insertInto('memberships').values({ user_id: ownerId, company_id: id, role: 'owner' }).execute();

    const applicationId = await nextId(tx, 'applications', 201);
    const apiKey = randomToken('rk');
    const clientSecret = randomToken('cs');
    await tx
      .insertInto('applications')
      .values({
        id: applicationId,
        company_id: id,
        name: `${name} (REST API)`,
        api_key_hash: sha256Hex(apiKey),
        client_secret_hash: sha256Hex(clientSecret),
        login_link: input.loginLink ?? '',
      })
      .execute();
    await tx.insertInto('application_companies').values({ application_id: applicationId, company_id: id }).execute();
    return {
      company_id: id,
      public_id: publicId,
      owner_user_id: ownerId,
      application_id: applicationId,
      api_key: apiKey,
      client_secret: clientSecret,
    };
  });
}

/**
 * The prefix of a company's order numbers (`A-1001`), unique in the store: the name's first letter,
 * else its first two or three, else the letter and a number.
 */
async function freeOrderPrefix(db: Db, name: string): Promise<string> {
  const letters =
    name
      .normalize('NFKD')
      .replace(/[^A-Za-z]/g, '')
      .toUpperCase() || 'O';
  const candidates = [letters.slice(0, 1), letters.slice(0, 2), letters.slice(0, 3)];
  for (let n = 2; n < 1000; n++) candidates.push(`${letters.charAt(0)}${n}`);
  const taken = new Set((await db.selectFrom('companies').select('order_prefix').execute()).map((c) => c.order_prefix));
  return candidates.find((c) => !taken.has(c))!;
}

async function requireCompany(db: Db, companyId: number): Promise<{ id: number; name: string }> {
  const company = await db.selectFrom('companies').select(['id', 'name']).where('id', '=', companyId).executeTakeFirst();
  if (!company) throw new SupportError([`--company ${companyId}: there is no such company (\`company list\` shows them).`]);
  return company;
}

/** The companies of the store, for `company list`. */
export function listCompanies(db: Db) {
  return db.selectFrom('companies').select(['id', 'public_id', 'name', 'contact_email']).orderBy('id').execute();
}

/** The origins a key may serve (domain/widgets.ts, checkOrigins): every fault at once. */
export function keyOrigins(origins: readonly string[], development: boolean): string[] {
  const { kept, faults } = checkOrigins(origins, development);
  const problems = faults.map(({ origin, message }) => `--origin ${String(origin)}: ${message}`);
  if (origins.length === 0) problems.unshift('--origin: at least one origin, such as https://www.acme.example.');
  if (problems.length) throw new SupportError(problems);
  return kept;
}

/** A new widget key of the company for a widget type, serving the origins. */
export async function createWidgetKey(
  db: Db,
  input: { companyId: number; type: string; origins: readonly string[]; development: boolean; note?: string },
): Promise<{ key: string; type: WidgetType; company_id: number; origins: string[] }> {
  const company = await requireCompany(db, input.companyId);
  if (!WIDGET_TYPES.includes(input.type as WidgetType)) {
    throw new SupportError([`--type ${input.type}: one of ${WIDGET_TYPES.join(', ')}.`]);
  }
  const origins = keyOrigins(input.origins, input.development);
  const { key } = await insertWidget(db, {
    companyId: company.id,
    type: input.type as WidgetType,
    origins,
    now: Date.now(),
    note: input.note ?? `the ${input.type} widget of ${company.name}`,
  });
  return { key, type: input.type as WidgetType, company_id: company.id, origins };
}

async function requireKey(db: Db, key: string) {
  const row = await db.selectFrom('widget_keys').select(['key', 'type', 'company_id']).where('key', '=', key).executeTakeFirst();
  if (!row) throw new SupportError([`--key ${key}: there is no such widget key.`]);
  return row;
}

/** The origins a key serves from now on (the whole list). */
export async function setWidgetKeyOrigins(db: Db, key: string, origins: readonly string[], development: boolean) {
  await requireKey(db, key);
  const list = keyOrigins(origins, development);
  await db
    .updateTable('widget_keys')
    .set({ origins: JSON.stringify(list) })
    .where('key', '=', key)
    .execute();
  return { key, origins: list };
}

/** A key that serves nothing any more (the widget API answers `not-available`); `enable` undoes it. */
export async function setWidgetKeyEnabled(db: Db, key: string, enabled: boolean) {
  await requireKey(db, key);
  await db
    .updateTable('widget_keys')
    .set({ enabled: enabled ? 1 : 0 })
    .where('key', '=', key)
    .execute();
  return { key, enabled };
}

/** Ends every sign-in (token) of an email, users' and participants' alike. */
export async function invalidateTokensOf(db: Db, email: string, now: number) {
  const address = email.trim().toLowerCase();
  if (!EMAIL.test(address)) throw new SupportError(['--email: the email address whose sign-ins end.']);
  return { email: address, invalidated: await invalidateTokens(db, { email: address }, now) };
}

/**
 * Imports a catalogue (catalogue.ts) into the company: new records are added, records with an id of
 * the company's are updated. A fault anywhere stops it before anything is written. `mediaDir` is
 * where videos' files must be.
 */
export async function importCatalogue(
  db: Db,
  companyId: number,
  input: unknown,
  mediaDir: string,
  /** A class with places booked may change its time, place or price (its participants are not told). */
  opts: { moveBooked?: boolean } = {},
) {
  const parsed = Catalogue.safeParse(input);
  if (!parsed.success) throw new SupportError(catalogueProblems(parsed.error));
  const catalogue = parsed.data;
  const company = await requireCompany(db, companyId);
  const problems: string[] = [];
  const programmes = new Set(catalogue.programmes.flatMap((p) => (p.id ? [p.id] : [])));
  catalogue.videos.forEach((video, i) => {
    if (!existsSync(join(mediaDir, `${video.media}.webm`))) {
      problems.push(`videos.${i}.media: there is no ${video.media}.webm in the media folder: put its files there first.`);
    }
    video.captions.forEach((lang, j) => {
      if (!existsSync(join(mediaDir, `${video.media}.${lang}.vtt`))) {
        problems.push(`videos.${i}.captions.${j}: there is no ${video.media}.${lang}.vtt in the media folder.`);
      }
    });
  });
  // Prices are in the company's currency: a cart never mixes currencies.
  const { currency } = await db.selectFrom('companies').select('currency').where('id', '=', company.id).executeTakeFirstOrThrow();
  catalogue.programmes.forEach((p, i) =>
    p.classes.forEach((c, j) => {
      if (c.price.currency !== currency)
        problems.push(
          `programmes.${i}.classes.${j}.price.currency: the company's prices are in ${currency}, not ${c.price.currency}.`,
        );
    }),
  );
  catalogue.vouchers.forEach((v, i) => {
    if (v.amount && v.amount.currency !== currency)
      problems.push(`vouchers.${i}.amount.currency: the company's prices are in ${currency}, not ${v.amount.currency}.`);
  });
  return db.transaction().execute(async (tx) => {
    // Ids of other companies are not this company's to change.
    const owned = async (table: 'courses' | 'places' | 'videos', id: string | undefined, path: string) => {
      if (!id) return false;
      const row = await tx.selectFrom(table).select('company_id').where('id', '=', id).executeTakeFirst();
      if (row && row.company_id !== company.id) problems.push(`${path}: ${id} belongs to another company.`);
      return row !== undefined;
    };
    const programmeOf = async (id: string | null, path: string) => {
      if (id === null || programmes.has(id)) return;
      const row = await tx.selectFrom('courses').select('company_id').where('id', '=', id).executeTakeFirst();
      if (row?.company_id !== company.id) problems.push(`${path}: there is no programme ${id} in the file or of this company.`);
    };
    for (const [i, p] of catalogue.programmes.entries()) {
      await owned('courses', p.id, `programmes.${i}.id`);
      for (const [j, c] of p.classes.entries()) {
        if (!c.id) continue;
        const row = await tx
          .selectFrom('classes as cl')
          .innerJoin('courses as co', 'co.id', 'cl.course_id')
          .select('co.company_id')
          .where('cl.id', '=', c.id)
          .executeTakeFirst();
        if (row && row.company_id !== company.id)
          problems.push(`programmes.${i}.classes.${j}.id: ${c.id} belongs to another company.`);
        const current = row ? await getClass(tx, c.id) : undefined;
        const booked = current?.confirmed ?? 0;
        if (c.capacity < booked) {
          problems.push(
            `programmes.${i}.classes.${j}.capacity: ${c.id} has ${booked} seats booked already: its capacity cannot go below that.`,
          );
        }
        // People booked this class as it was: its time, place and price move only when support says so.
        const placed = current ? current.confirmed + current.waitlisted : 0;
        if (current && placed > 0 && !opts.moveBooked) {
          const moved = [
            Date.parse(c.starts_at) !== current.starts_at || Date.parse(c.ends_at) !== current.ends_at ? 'time' : '',
            c.timezone !== current.timezone ? 'time zone' : '',
            c.location !== current.location ? 'place' : '',
            c.price.amount !== current.price_amount || c.price.currency !== current.currency ? 'price' : '',
          ].filter(Boolean);
          if (moved.length) {
            problems.push(
              `programmes.${i}.classes.${j}: ${c.id} has ${placed} places booked: its ${moved.join(', ')} would change under them. Keep them as they are, or import with --move-booked and tell its participants yourself.`,
            );
          }
        }
      }
    }
    for (const [i, place] of catalogue.places.entries()) await owned('places', place.id, `places.${i}.id`);
    for (const [i, video] of catalogue.videos.entries()) {
      await owned('videos', video.id, `videos.${i}.id`);
      await programmeOf(video.programme, `videos.${i}.programme`);
    }
    for (const [i, voucher] of catalogue.vouchers.entries()) await programmeOf(voucher.programme, `vouchers.${i}.programme`);
    if (problems.length) throw new SupportError(problems);

    const counts = { programmes: 0, classes: 0, lecturers: 0, places: 0, vouchers: 0, videos: 0 };
    for (const p of catalogue.programmes) {
      const courseId = p.id ?? randomId('crs');
      const course = { title: p.title, summary: p.summary, category: p.category };
      await tx
        .insertInto('courses')
        .values({ id: courseId, company_id: company.id, ...course })
        .onConflict((oc) => oc.column('id').doUpdateSet(course))
        .execute();
      counts.programmes += 1;
      for (const c of p.classes) {
        const classId = c.id ?? randomId('cls');
        const values = {
          course_id: courseId,
          starts_at: Date.parse(c.starts_at),
          ends_at: Date.parse(c.ends_at),
          timezone: c.timezone,
          local_day: localDay(Date.parse(c.starts_at), c.timezone),
          location: c.location,
          price_amount: c.price.amount,
          currency: c.price.currency,
          capacity: c.capacity,
          waitlist: c.waitlist === false ? (0 as const) : (1 as const),
          waitlist_capacity: c.waitlist === false ? null : c.waitlist.capacity,
        };
        await tx
          .insertInto('classes')
          .values({ id: classId, ...values })
          .onConflict((oc) => oc.column('id').doUpdateSet(values))
          .execute();
        counts.classes += 1;
        await tx.deleteFrom('class_lecturers').where('class_id', '=', classId).execute();
        for (const lecturer of c.lecturers) {
          const user = await lecturerOf(tx, company.id, lecturer);
          await tx.insertInto('class_lecturers').values({ class_id: classId, user_id: user }).execute();
          counts.lecturers += 1;
        }
      }
    }
    const placeCount = Number(
      (
        await tx
          .selectFrom('places')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', company.id)
          .executeTakeFirst()
      )?.n ?? 0,
    );
    for (const [i, place] of catalogue.places.entries()) {
      const values = { name: place.name, address: place.address, lat: place.lat, lng: place.lng, location: place.location };
      await tx
        .insertInto('places')
        .values({ id: place.id ?? randomId('pl'), company_id: company.id, ...values, position: placeCount + i })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
      counts.places += 1;
    }
    for (const v of catalogue.vouchers) {
      const values = {
        percent: v.percent,
        amount: v.amount?.amount ?? null,
        currency: v.amount?.currency ?? null,
        course_id: v.programme,
        expires_at: v.expires_at === null ? null : Date.parse(v.expires_at),
        max_uses: v.max_uses,
      };
      const existing = await tx
        .selectFrom('vouchers')
        .select('id')
        .where('company_id', '=', company.id)
        .where('code', '=', v.code)
        .executeTakeFirst();
      if (existing) await tx.updateTable('vouchers').set(values).where('id', '=', existing.id).execute();
      else
        await tx
          .insertInto('vouchers')
          .values({ id: randomId('v'), company_id: company.id, code: v.code, uses: 0, ...values })
          .execute();
      counts.vouchers += 1;
    }
    const videoCount = Number(
      (
        await tx
          .selectFrom('videos')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', company.id)
          .executeTakeFirst()
      )?.n ?? 0,
    );
    for (const [i, v] of catalogue.videos.entries()) {
      const values = {
        title: v.title,
        course_id: v.programme,
        access: v.access,
        media: v.media,
        duration_s: v.duration_s,
        width: v.width,
        height: v.height,
        captions: JSON.stringify(v.captions),
      };
      await tx
        .insertInto('videos')
        .values({ id: v.id ?? randomId('vid'), company_id: company.id, ...values, position: videoCount + i })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
      counts.videos += 1;
    }
    return { company_id: company.id, imported: counts };
  });
}

/** A lecturer of the catalogue: the user of that email (made if new), with the lecturer's role in the company unless they have one. */
async function lecturerOf(
  tx: Tx,
  companyId: number,
  lecturer: { email: string; first_name: string; last_name: string },
): Promise<number> {
  let user = await tx.selectFrom('users').select('id').where('email', '=', lecturer.email).executeTakeFirst();
  if (!user) {
    const id = await nextId(tx, 'users', 101);
    await tx
      .insertInto('users')
      .values({ id, email: lecturer.email, first_name: lecturer.first_name, last_name: lecturer.last_name, valid: 1 })
      .execute();
    user = { id };
  }
  const role = await tx
    .selectFrom('memberships')
    .select('role')
    .where('user_id', '=', user.id)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!role) await tx.insertInto('memberships').values({ user_id: user.id, company_id: companyId, role: 'lecturer' }).execute();
  return user.id;
}

/** The company's catalogue, in the file's format (with ids): importing it again changes nothing. */
export async function exportCatalogue(db: Db, companyId: number): Promise<CatalogueInput> {
  const company = await requireCompany(db, companyId);
  const iso = (ms: number) => new Date(ms).toISOString();
  const courses = await db.selectFrom('courses').selectAll().where('company_id', '=', company.id).orderBy('id').execute();
  const classes = await db
    .selectFrom('classes as cl')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .selectAll('cl')
    .where('co.company_id', '=', company.id)
    .orderBy('cl.starts_at')
    .orderBy('cl.id')
    .execute();
  const lecturers = await db
    .selectFrom('class_lecturers as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.class_id', 'u.email', 'u.first_name', 'u.last_name'])
    .orderBy('u.email')
    .execute();
  const places = await db.selectFrom('places').selectAll().where('company_id', '=', company.id).orderBy('position').execute();
  const vouchers = await db.selectFrom('vouchers').selectAll().where('company_id', '=', company.id).orderBy('code').execute();
  const videos = await db.selectFrom('videos').selectAll().where('company_id', '=', company.id).orderBy('position').execute();
  return {
    programmes: courses.map((co) => ({
      id: co.id,
      title: co.title,
      summary: co.summary,
      category: co.category,
      classes: classes
        .filter((cl) => cl.course_id === co.id)
        .map((cl) => ({
          id: cl.id,
          starts_at: iso(cl.starts_at),
          ends_at: iso(cl.ends_at),
          timezone: cl.timezone,
          location: cl.location,
          price: { amount: cl.price_amount, currency: cl.currency },
          capacity: cl.capacity,
          waitlist: cl.waitlist === 1 ? { capacity: cl.waitlist_capacity } : false,
          lecturers: lecturers
            .filter((l) => l.class_id === cl.id)
            .map(({ email, first_name, last_name }) => ({ email, first_name, last_name })),
        })),
    })),
    places: places.map(({ id, name, location, address, lat, lng }) => ({ id, name, location, address, lat, lng })),
    vouchers: vouchers.map((v) => ({
      code: v.code,
      percent: v.percent,
      amount: v.amount === null ? null : { amount: v.amount, currency: v.currency! },
      programme: v.course_id,
      expires_at: v.expires_at === null ? null : iso(v.expires_at),
      max_uses: v.max_uses,
    })),
    videos: videos.map((v) => ({
      id: v.id,
      title: v.title,
      programme: v.course_id,
      access: v.access,
      media: v.media,
      duration_s: v.duration_s,
      width: v.width,
      height: v.height,
      captions: JSON.parse(v.captions) as string[],
    })),
  };
}
