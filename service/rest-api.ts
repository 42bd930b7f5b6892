/**
 * The REST API of the specification (DESIGN.md, "REST API of the service"): passwordless login by
 * emailed link + PIN or by client secret, the user, and the company's programmes scoped to the role.
 * Headers: X-SERVICE-API-KEY (the application), X-SERVICE-TOKEN (the user), X-SERVICE-COMPANY.
 */
import type { Hono } from 'hono';
import { LINK_TTL_MS, PIN_MAX_ATTEMPTS, PIN_TTL_MS, clientAddress, newPin, pinHash, sameHash } from './auth.ts';
import { readJsonObject } from './body.ts';
import { listCourses, publicClass, type ClassRow } from './catalog.ts';
import { isoTime, sendJson, type AppContext, type AppEnv, type ServiceDeps } from './context.ts';
import type { Db } from './db.ts';
import { ApiError, methodNotAllowed, newFieldErrors, validationError } from './errors.ts';
import { randomToken, sha256Hex } from './ids.ts';
import { queueSignInEmail } from './outbox.ts';
import { DEFAULT_LIMITS, type Limit } from './rate-limit.ts';
import { emailField, unknownFields } from './validate.ts';

export { PIN_MAX_ATTEMPTS, PIN_TTL_MS };
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

/** Per email and per client address; documented in the OpenAPI document and the README. */
export const RATE_LIMITS = { login: DEFAULT_LIMITS.login, verify: DEFAULT_LIMITS.verify };

/**
 * A link the service builds: an absolute URL as it is, a path under the service's public URL
 * (configured, never a request's Host).
 */
export function serviceLink(publicUrl: string, link: string): URL {
  return /^https?:\/\//i.test(link) ? new URL(link) : new URL(`${publicUrl}/${link.replace(/^\/+/, '')}`);
}

type Role = 'owner' | 'member' | 'lecturer';

interface AppRow {
  id: string;
  company_id: string;
  name: string;
  client_secret_hash: string;
  login_link: string;
}

interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

export function registerRestApi(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const { db } = deps.store;
  const { clock, limiter } = deps;

  app.use('/v1/*', async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
  });

  const limit = (c: AppContext, action: 'login' | 'verify', email: string) => {
    const rules = deps.limits[action];
    const limits: Limit[] = [
      { key: `${action}:address:${clientAddress(c, deps.trustProxy)}`, ...rules.perAddress },
      { key: `${action}:email:${email}`, ...rules.perEmail },
    ];
    limiter.take(limits, action === 'login' ? 'logins' : 'PIN checks');
  };

  app.post('/v1/login', async (c) => {
    const application = requireApplication(db, c);
    const body = await readJsonObject(c);
    const fields = unknownFields(body, ['login', 'verification_method', 'client_secret']);
    const email = emailField(body, 'login', fields, 'Send login: the email address of the user.');
    const method = body.verification_method;
    if (method !== 'email' && method !== 'client_secret') {
      fields.verification_method = 'Send verification_method: "email" (a link and a PIN by email) or "client_secret".';
    }
    const secret = body.client_secret;
    if (method === 'client_secret' && (typeof secret !== 'string' || secret === '')) {
      fields.client_secret = 'Send client_secret (the client secret of your application) with verification_method "client_secret".';
    }
    if (method === 'email' && secret !== undefined) {
      fields.client_secret = 'client_secret goes with verification_method "client_secret" only: remove it.';
    }
    if (Object.keys(fields).length > 0) throw validationError(fields);
    limit(c, 'login', email!);

    if (method === 'client_secret') {
      const user = findUser(db, application, email!);
      const secretOk = sameHash(sha256Hex(secret as string), application.client_secret_hash);
      if (!secretOk || !user) {
        throw new ApiError(401, 'invalid-credentials', 'The login or the client secret is not valid.');
      }
      const token = issueToken(db, clock.now(), user, application);
      return sendJson({ message: 'Logged in.', token });
    }

    // The answer is the same whether or not the email belongs to a user, and it goes out before
    // anything is looked up or written: neither its words nor its time tell which emails do.
    deps.jobs.add('REST login email', () => {
      const user = findUser(db, application, email!);
      if (!user) return;
      db.transaction(() => {
        const now = clock.now();
        // A new login replaces the previous PIN.
        db.prepare(
          `UPDATE pins SET used_at = ? WHERE kind = 'user' AND email = ? AND application_id = ? AND used_at IS NULL`,
        ).run(now, user.email, application.id);
        const pin = newPin();
        db.prepare(
          `INSERT INTO pins (kind, subject_id, email, application_id, pin_hash, expires_at)
           VALUES ('user', ?, ?, ?, ?, ?)`,
        ).run(user.id, user.email, application.id, pinHash(user.email, pin), now + PIN_TTL_MS);
        const token = issueToken(db, now, user, application, { emailed: true });
        const link = serviceLink(deps.publicUrl, application.login_link);
        link.searchParams.set('key', token);
        queueSignInEmail(db, now, user, { name: application.name, place: application.name, link: link.href, pin });
      }).immediate();
    });
    return sendJson({
      message:
        'If this email belongs to a user of this application, a sign-in link and a 6-digit PIN are on their way. The PIN is valid for 5 minutes.',
    });
  });

  app.post('/v1/verify', async (c) => {
    const application = requireApplication(db, c);
    const body = await readJsonObject(c);
    const fields = unknownFields(body, ['action', 'email', 'pin']);
    if (body.action !== 'validate_pin') fields.action = 'Send action: "validate_pin".';
    const email = emailField(body, 'email', fields, 'Send email: the address the PIN was sent to.');
    const pin = body.pin;
    if (typeof pin !== 'string' || !/^\d{6}$/.test(pin)) {
      fields.pin = 'Send pin: the 6 digits from the email, as a string (for example "042917").';
    }
    if (Object.keys(fields).length > 0) throw validationError(fields);
    limit(c, 'verify', email!);

    const now = clock.now();
    // Decide and record the attempt in one transaction: parallel guesses cannot share a try.
    const token = db.transaction((): string | undefined => {
      const row = db
        .prepare(
          `SELECT id, subject_id, pin_hash, expires_at, attempts FROM pins
           WHERE kind = 'user' AND email = ? AND application_id = ? AND used_at IS NULL
           ORDER BY id DESC LIMIT 1`,
        )
        .get(email, application.id) as
        | { id: number; subject_id: string; pin_hash: string; expires_at: number; attempts: number }
        | undefined;
      if (!row || row.expires_at <= now || row.attempts >= PIN_MAX_ATTEMPTS) return undefined;
      if (!sameHash(pinHash(email!, pin as string), row.pin_hash)) {
        db.prepare('UPDATE pins SET attempts = attempts + 1 WHERE id = ?').run(row.id);
        return undefined;
      }
      const user = findUser(db, application, email!);
      if (!user) return undefined;
      db.prepare('UPDATE pins SET used_at = ? WHERE id = ?').run(now, row.id);
      return issueToken(db, now, user, application);
    }).immediate();
    if (token === undefined) {
      throw new ApiError(
        401,
        'invalid-pin',
        'This PIN is wrong, used or expired (a PIN is valid for 5 minutes, once, and for 5 tries). Log in again for a new one.',
      );
    }
    return sendJson({ message: 'PIN accepted.', token });
  });

  app.get('/v1/user', (c) => {
    const application = requireApplication(db, c);
    const user = requireUser(db, c, application, clock.now());
    const companies = userCompanies(db, application, user.id);
    return sendJson({
      user_valid: true,
      user: {
        id: user.id,
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        companies,
      },
      app: { application_id: application.id, company_id: application.company_id, type: 'application' },
    });
  });

  app.get('/v1/courses', (c) => {
    const application = requireApplication(db, c);
    const user = requireUser(db, c, application, clock.now());
    const companyId = c.req.header('x-service-company');
    if (companyId === undefined || companyId.trim() === '') {
      throw new ApiError(
        400,
        'missing-company',
        'Send the X-SERVICE-COMPANY header with the id of the company (GET /v1/user lists yours).',
      );
    }
    const company = userCompanies(db, application, user.id).find((co) => co.id === companyId.trim());
    if (!company) {
      throw new ApiError(
        403,
        'company-not-allowed',
        'You hold no role in this company for this application. GET /v1/user lists the companies you can use.',
      );
    }
    const { page, perPage } = pagination(c);

    const lecturerClasses =
      company.role === 'lecturer'
        ? new Set(
            (
              db.prepare('SELECT class_id FROM class_lecturers WHERE user_id = ?').all(user.id) as {
                class_id: string;
              }[]
            ).map((r) => r.class_id),
          )
        : undefined;
    const all = listCourses(db, {
      companyId: company.id,
      ...(lecturerClasses ? { classIds: lecturerClasses } : {}),
    });
    const slice = all.slice((page - 1) * perPage, page * perPage);
    // Owners see who booked every class, lecturers who booked theirs; members see numbers only.
    const showParticipants = company.role !== 'member';
    return sendJson({
      company,
      courses: slice.map(({ course, classes }) => ({
        id: course.id,
        title: course.title,
        summary: course.summary,
        category: course.category,
        classes: classes.map((cl) => restClass(db, cl, showParticipants)),
      })),
      pagination: {
        page,
        per_page: perPage,
        total: all.length,
        total_pages: Math.max(1, Math.ceil(all.length / perPage)),
      },
    });
  });

  for (const [path, allow] of [
    ['/v1/login', ['POST']],
    ['/v1/verify', ['POST']],
    ['/v1/user', ['GET', 'HEAD']],
    ['/v1/courses', ['GET', 'HEAD']],
  ] as const) {
    app.all(path, (c) => {
      if (c.req.method === 'OPTIONS') throw noCors([...allow]);
      throw methodNotAllowed([...allow]);
    });
  }
}

/**
 * The REST API answers no CORS: it is for servers and same-origin tools, because its API key and
 * client secret identify the application and must not be shipped to browsers on other origins (the
 * widget API is the public one). A preflight is refused with a message a developer sees in the
 * network panel.
 */
function noCors(allow: string[]): ApiError {
  return new ApiError(
    405,
    'method-not-allowed',
    'The REST API answers no CORS preflight: it is for servers and same-origin tools, and its API key must never be shipped to a browser. Call it from your server (the widgets use the widget API).',
    undefined,
    { Allow: allow.join(', ') },
  );
}

function requireApplication(db: Db, c: AppContext): AppRow {
  const key = c.req.header('x-service-api-key');
  if (key === undefined || key.trim() === '') {
    throw new ApiError(401, 'missing-api-key', 'Send your REST API key in the X-SERVICE-API-KEY header.');
  }
  const application = db
    .prepare(
      'SELECT id, company_id, name, client_secret_hash, login_link FROM applications WHERE api_key_hash = ?',
    )
    .get(sha256Hex(key.trim())) as AppRow | undefined;
  if (application) return application;
  const isWidgetKey =
    key.startsWith('wk_') || db.prepare('SELECT 1 FROM widget_keys WHERE key = ?').get(key.trim()) !== undefined;
  throw new ApiError(
    401,
    'invalid-api-key',
    isWidgetKey
      ? 'This is a widget key: widget keys work only for the widgets (the widget API), not for the REST API. Send the REST API key of your application.'
      : 'The service does not know this API key. Check the X-SERVICE-API-KEY header.',
  );
}

/** A valid user with a role in at least one company the application serves. */
function findUser(db: Db, application: AppRow, email: string): UserRow | undefined {
  return db
    .prepare(
      `SELECT u.id, u.email, u.first_name, u.last_name FROM users u
       WHERE u.email = ? AND u.valid = 1 AND EXISTS (
         SELECT 1 FROM memberships m JOIN application_companies ac ON ac.company_id = m.company_id
         WHERE m.user_id = u.id AND ac.application_id = ?)`,
    )
    .get(email, application.id) as UserRow | undefined;
}

function requireUser(db: Db, c: AppContext, application: AppRow, now: number): UserRow {
  const token = c.req.header('x-service-token');
  if (token === undefined || token.trim() === '') {
    throw new ApiError(
      401,
      'missing-token',
      'Send the user token in the X-SERVICE-TOKEN header (POST /v1/login gets one).',
    );
  }
  const hash = sha256Hex(token.trim());
  // An emailed link's token never used within LINK_TTL_MS is dead; its first use keeps it.
  const row = db
    .prepare(
      `SELECT u.email, t.emailed, t.used_at FROM tokens t JOIN users u ON u.id = t.subject_id
       WHERE t.hash = ? AND t.kind = 'user' AND t.invalidated_at IS NULL AND t.application_id = ?
         AND (t.emailed = 0 OR t.used_at IS NOT NULL OR t.created_at > ?)`,
    )
    .get(hash, application.id, now - LINK_TTL_MS) as { email: string; emailed: number; used_at: number | null } | undefined;
  if (row && row.emailed === 1 && row.used_at === null) {
    db.prepare('UPDATE tokens SET used_at = ? WHERE hash = ?').run(now, hash);
  }
  // The user may have been disabled, or lost every role, since the token was issued.
  const user = row ? findUser(db, application, row.email) : undefined;
  if (!user) {
    throw new ApiError(
      401,
      'invalid-token',
      'This token is not valid (any more): log in again with POST /v1/login.',
    );
  }
  return user;
}

function userCompanies(db: Db, application: AppRow, userId: string) {
  return db
    .prepare(
      `SELECT co.id, co.name, m.role FROM memberships m
       JOIN companies co ON co.id = m.company_id
       JOIN application_companies ac ON ac.company_id = m.company_id AND ac.application_id = ?
       WHERE m.user_id = ? ORDER BY co.id = ? DESC, co.name`,
    )
    .all(application.id, userId, application.company_id) as { id: string; name: string; role: Role }[];
}

function issueToken(db: Db, now: number, user: UserRow, application: AppRow, opts: { emailed?: boolean } = {}): string {
  const token = randomToken('tok');
  db.prepare(
    `INSERT INTO tokens (hash, kind, subject_id, email, application_id, created_at, emailed)
     VALUES (?, 'user', ?, ?, ?, ?, ?)`,
  ).run(sha256Hex(token), user.id, user.email, application.id, now, opts.emailed ? 1 : 0);
  return token;
}

function pagination(c: AppContext): { page: number; perPage: number } {
  const fields = newFieldErrors();
  const parse = (name: string, fallback: number, max: number): number => {
    const raw = c.req.query(name);
    if (raw === undefined) return fallback;
    const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= 1 && n <= max)) {
      fields[name] =
        name === 'page'
          ? 'page is a whole number from 1.'
          : `per_page is a whole number from 1 to ${PER_PAGE_MAX}.`;
    }
    return n;
  };
  const page = parse('page', 1, Number.MAX_SAFE_INTEGER);
  const perPage = parse('per_page', PER_PAGE_DEFAULT, PER_PAGE_MAX);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return { page, perPage };
}

function restClass(db: Db, cl: ClassRow, showParticipants: boolean) {
  const lecturers = db
    .prepare(
      `SELECT u.id, u.first_name, u.last_name FROM class_lecturers l JOIN users u ON u.id = l.user_id
       WHERE l.class_id = ? ORDER BY u.last_name, u.first_name`,
    )
    .all(cl.id);
  const base = {
    ...publicClass(cl),
    registrations: { confirmed: cl.confirmed, waitlisted: cl.waitlisted },
    lecturers,
  };
  if (!showParticipants) return base;
  const participants = (
    db
      .prepare(
        `SELECT id, first_name, last_name, email, phone, status, created_at FROM registrations
         WHERE class_id = ? AND status IN ('confirmed', 'waitlisted') ORDER BY created_at, id`,
      )
      .all(cl.id) as {
      id: string;
      first_name: string;
      last_name: string;
      email: string;
      phone: string | null;
      status: string;
      created_at: number;
    }[]
  ).map((r) => ({
    registration_id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    phone: r.phone,
    status: r.status,
    registered_at: isoTime(r.created_at),
  }));
  return { ...base, participants };
}
