/**
 * Development-only endpoints (DESIGN.md, "Reference service extras for development"). They are
 * registered only when the service runs in development mode; otherwise their paths are 404.
 */
import type { Hono } from 'hono';
import { readJsonObject } from './body.ts';
import { isoTime, sendJson, type AppEnv, type ServiceDeps } from './context.ts';
import { methodNotAllowed, validationError, type FieldErrors } from './errors.ts';
import { sha256Hex } from './ids.ts';
import { unknownFields } from './validate.ts';
import { WIDGET_TYPES as TYPE_TABLE } from '../contract/index.ts';
import {
  SEED_APPLICATIONS,
  SEED_CLASS_ROLES,
  SEED_COMPANIES,
  SEED_COURSE_WITHOUT_CLASSES,
  SEED_PARTICIPANTS,
  SEED_USERS,
  SEED_WIDGET_KEYS,
  WIDGET_TYPES,
  seedRegistrationId,
} from './seed.ts';

const MAX_ADVANCE_S = 10 * 366 * 24 * 60 * 60;

export function registerDev(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const { store, clock } = deps;

  app.use('/dev/*', async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
  });

  app.get('/dev/seed', () => sendJson(seedDocument(store.seedState.seededAt, clock.now())));

  app.get('/dev/outbox', async (c) => {
    // Emails of calls already answered may still be on their way (jobs.ts): wait for them.
    await deps.jobs.idle();
    const to = c.req.query('to')?.trim().toLowerCase();
    const rows = store.db
      .prepare(
        `SELECT id, to_addr, subject, text, link, pin, sent_at FROM outbox
         WHERE (? IS NULL OR lower(to_addr) = ?) ORDER BY id DESC LIMIT 200`,
      )
      .all(to ?? null, to ?? null) as {
      id: number;
      to_addr: string;
      subject: string;
      text: string;
      link: string | null;
      pin: string | null;
      sent_at: number;
    }[];
    return sendJson({
      emails: rows.map((r) => ({
        id: r.id,
        to: r.to_addr,
        subject: r.subject,
        text: r.text,
        link: r.link,
        pin: r.pin,
        sent_at: isoTime(r.sent_at),
      })),
    });
  });

  const clockBody = () => ({ now: isoTime(clock.now()), offset_s: clock.offsetMs / 1000 });
  app.get('/dev/clock', () => sendJson(clockBody()));
  app.post('/dev/clock', async (c) => {
    const body = await readJsonObject(c);
    const fields: FieldErrors = unknownFields(body, ['advance_s']);
    const s = body.advance_s;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > MAX_ADVANCE_S) {
      fields.advance_s = `Send advance_s: a number of seconds from 0 to ${MAX_ADVANCE_S} (the clock only moves forward; POST /dev/reset puts it back).`;
    }
    if (Object.keys(fields).length > 0) throw validationError(fields);
    clock.advance(s as number);
    return sendJson(clockBody());
  });
  app.all('/dev/clock', () => {
    throw methodNotAllowed(['GET', 'POST']);
  });

  app.post('/dev/tokens/invalidate', async (c) => {
    const body = await readJsonObject(c);
    const fields = unknownFields(body, ['token', 'email']);
    const { token, email } = body;
    const given = [token, email].filter((v) => v !== undefined).length;
    if (given !== 1) fields.token = 'Send either token (one token) or email (every token of that person).';
    else if (token !== undefined && (typeof token !== 'string' || token === '')) fields.token = 'token must be a non-empty string.';
    else if (email !== undefined && (typeof email !== 'string' || email.trim() === '')) fields.email = 'email must be a non-empty string.';
    if (Object.keys(fields).length > 0) throw validationError(fields);
    const now = clock.now();
    const result =
      typeof token === 'string'
        ? store.db
            .prepare('UPDATE tokens SET invalidated_at = ? WHERE hash = ? AND invalidated_at IS NULL')
            .run(now, sha256Hex(token))
        : store.db
            .prepare('UPDATE tokens SET invalidated_at = ? WHERE email = ? AND invalidated_at IS NULL')
            .run(now, (email as string).trim().toLowerCase());
    return sendJson({ invalidated: result.changes });
  });

  // The page each REST application's emailed link opens, set without editing the seed.
  const loginLinks = () =>
    store.db.prepare('SELECT id AS application_id, name, login_link FROM applications ORDER BY rowid').all() as {
      application_id: string;
      name: string;
      login_link: string;
    }[];
  app.get('/dev/login-links', () => sendJson({ applications: loginLinks() }));
  app.post('/dev/login-links', async (c) => {
    const body = await readJsonObject(c);
    const fields = unknownFields(body, ['application_id', 'login_link']);
    const known = loginLinks();
    const id = body.application_id;
    if (typeof id !== 'string' || !known.some((a) => a.application_id === id)) {
      fields.application_id = `Send application_id, one of: ${known.map((a) => a.application_id).join(', ')}.`;
    }
    const link = loginLinkField(body.login_link);
    if (typeof link !== 'string') fields.login_link = link.error;
    if (Object.keys(fields).length > 0) throw validationError(fields);
    store.db.prepare('UPDATE applications SET login_link = ? WHERE id = ?').run(link, id);
    return sendJson(loginLinks().find((a) => a.application_id === id));
  });

  app.post('/dev/reset', async (c) => {
    // Its JSON content type is required, even with no body: no page of another site can send it.
    await readJsonObject(c, { optional: true });
    await deps.jobs.idle();
    clock.reset();
    store.reset();
    for (const hook of deps.onReset) hook();
    return sendJson({ ok: true, seeded_at: isoTime(store.seedState.seededAt) });
  });

  for (const path of ['/dev/seed', '/dev/outbox']) {
    app.all(path, () => {
      throw methodNotAllowed(['GET']);
    });
  }
  app.all('/dev/login-links', () => {
    throw methodNotAllowed(['GET', 'POST']);
  });
  for (const path of ['/dev/tokens/invalidate', '/dev/reset']) {
    app.all(path, () => {
      throw methodNotAllowed(['POST']);
    });
  }
}

const MAX_LINK_LENGTH = 2000;

/** An absolute http(s) URL, normalised, or what is wrong with it. */
function loginLinkField(value: unknown): string | { error: string } {
  const rule = `an absolute http:// or https:// URL of at most ${MAX_LINK_LENGTH} characters, like "https://intranet.example/sign-in" (the service adds key=<token>)`;
  if (value === undefined || value === null || value === '') return { error: `Send login_link: ${rule}.` };
  let url: URL | undefined;
  if (typeof value === 'string' && value.length <= MAX_LINK_LENGTH && !/[\s\u0000-\u001f\u007f]/.test(value)) {
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { error: `login_link must be ${rule}.` };
  if (url.username !== '' || url.password !== '') return { error: 'Remove the user name and password from login_link.' };
  return url.href;
}

/** DESIGN.md's shape first (rest, users, participants, widget_keys), then extras. */
export function seedDocument(seededAt: number, now: number) {
  const app = SEED_APPLICATIONS[0];
  // Company by company (Acme first), so that "the first member" is a member of Acme.
  const companyOrder = (id: string) => SEED_COMPANIES.findIndex((c) => c.id === id);
  const roles = (valid: boolean) =>
    SEED_USERS.filter((u) => u.valid === valid).flatMap((u) =>
      u.roles.map((r) => ({
        email: u.email,
        role: r.role,
        company_id: r.company_id,
        id: u.id,
        first_name: u.first_name,
        last_name: u.last_name,
        note: u.note,
      })),
    ).sort((a, b) => companyOrder(a.company_id) - companyOrder(b.company_id));
  return {
    rest: {
      api_key: app.api_key,
      client_secret: app.client_secret,
      application_id: app.id,
      company_id: app.company_id,
    },
    users: roles(true),
    participants: SEED_PARTICIPANTS.map((p) => ({
      email: p.email,
      company_id: p.company_id,
      id: p.id,
      first_name: p.first_name,
      last_name: p.last_name,
      phone: p.phone,
      /** The profile key of their company: it signs them in. */
      profile_key: SEED_WIDGET_KEYS.find(
        (k) => k.type === 'profile' && k.company_id === p.company_id && k.enabled && !k.revoked,
      )?.key,
      /** As seeded (cancelling or registering changes the data, not this list). */
      registrations: p.bookings.map((b) => ({
        id: seedRegistrationId(p.id, b.class_id),
        class_id: b.class_id,
        status: b.status,
      })),
      note: p.note,
    })),
    widget_keys: SEED_WIDGET_KEYS.map((k) => ({
      key: k.key,
      type: k.type,
      company_id: k.company_id,
      origins: k.origins,
      enabled: k.enabled,
      revoked: k.revoked,
      note: k.note,
      options: k.options ?? {},
    })),
    /** Contact messages are notified to `contact_email`. */
    companies: SEED_COMPANIES,
    /** Each widget type and the loader version it belongs to. */
    widget_types: Object.fromEntries(WIDGET_TYPES.map((type) => [type, `v${TYPE_TABLE[type]}`])),
    applications: SEED_APPLICATIONS.map((a) => ({
      application_id: a.id,
      name: a.name,
      company_id: a.company_id,
      companies: a.companies,
      api_key: a.api_key,
      client_secret: a.client_secret,
      login_link: a.login_link,
    })),
    /** Users whose login is refused (they hold a role but are not valid). */
    invalid_users: roles(false),
    classes: SEED_CLASS_ROLES,
    course_without_classes: SEED_COURSE_WITHOUT_CLASSES,
    seeded_at: isoTime(seededAt),
    now: isoTime(now),
  };
}
