/**
 * The public widget API (docs/widget-api.md): authenticated by the widget key alone, which travels
 * as the `key` query parameter so that a first render is one simple GET with no preflight.
 */
import type { Hono } from 'hono';
import { readJsonObject, type JsonObject } from './body.ts';
import { classState, getClass, listCourses, publicClass } from './catalog.ts';
import { isoTime, sendJson, type AppContext, type AppEnv, type ServiceDeps } from './context.ts';
import type { Db } from './db.ts';
import { ApiError, methodNotAllowed, validationError } from './errors.ts';
import { canonicalJson, runIdempotent } from './idempotency.ts';
import { randomId, sha256Hex } from './ids.ts';
import { originAllowed, pageOrigin } from './origins.ts';
import { queueEmail } from './outbox.ts';
import { WIDGET_TYPES, type WidgetType } from './seed.ts';
import { CONTROL_CHARS, EMAIL, unknownFields } from './validate.ts';

export const WIDGET_API_PREFIX = '/widget-api/v1';

interface WidgetKeyRow {
  key: string;
  company_id: string;
  company_name: string;
  type: WidgetType;
  origins: string;
  options: string;
  enabled: 0 | 1;
  revoked_at: number | null;
}

/** Types whose first render lists the company's programmes. */
const COURSE_TYPES = new Set<WidgetType>(['registration', 'calendar', 'checkout']);

export function registerWidgetApi(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const { db } = deps.store;
  const P = WIDGET_API_PREFIX;

  // CORS: allowed origins on success, any origin on an error (so a refused widget can say why).
  app.use('/widget-api/*', async (c, next) => {
    c.set('allowedOrigin', undefined);
    await next();
    const origin = c.req.header('origin');
    const headers = c.res.headers;
    headers.append('Vary', 'Origin');
    headers.set('Cache-Control', 'no-store');
    if (origin === undefined) return;
    if (c.res.status >= 400 || c.get('allowedOrigin') === origin) {
      headers.set('Access-Control-Allow-Origin', origin);
      headers.set('Access-Control-Expose-Headers', 'Idempotent-Replayed');
    }
  });

  // Preflight (writes only: GETs are simple requests). It passes for the key's origins only.
  app.options('/widget-api/*', (c) => {
    checkOrigin(c, lookupKey(db, c));
    return new Response(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key',
        'Access-Control-Max-Age': '600',
      },
    });
  });

  app.get(`${P}/widget`, (c) => {
    const key = lookupKey(db, c);
    checkOrigin(c, key);
    const type = c.req.query('type');
    if (type === undefined || type === '') {
      throw validationError({ type: `Add the widget type, for example type=${key.type}.` });
    }
    if (!(WIDGET_TYPES as readonly string[]).includes(type)) {
      throw validationError({
        type: `Unknown widget type "${type}". Use one of: ${WIDGET_TYPES.join(', ')}.`,
      });
    }
    checkTypeAndEnabled(key, type as WidgetType);

    const body: Record<string, unknown> = {
      widget: {
        type: key.type,
        company: { id: key.company_id, name: key.company_name },
        options: JSON.parse(key.options) as unknown,
      },
    };
    if (COURSE_TYPES.has(key.type)) {
      // An empty `course=` (an unset attribute) means every programme.
      const courseId = c.req.query('course') || undefined;
      if (courseId !== undefined) {
        const found = db
          .prepare('SELECT 1 FROM courses WHERE id = ? AND company_id = ?')
          .get(courseId, key.company_id);
        if (!found) {
          throw new ApiError(
            404,
            'course-not-found',
            `There is no programme "${courseId}" for this key. Check data-service-course, or remove it to list every programme.`,
          );
        }
      }
      body.courses = listCourses(db, {
        companyId: key.company_id,
        ...(courseId !== undefined ? { courseId } : {}),
        from: deps.clock.now(),
      }).map(({ course, classes }) => ({
        id: course.id,
        title: course.title,
        summary: course.summary,
        category: course.category,
        classes: classes.map(publicClass),
      }));
    }
    return sendJson(body);
  });
  app.all(`${P}/widget`, () => {
    throw methodNotAllowed(['GET', 'HEAD', 'OPTIONS']);
  });

  app.post(`${P}/registrations`, async (c) => {
    const key = lookupKey(db, c);
    checkOrigin(c, key);
    checkTypeAndEnabled(key, 'registration');
    const idempotencyKey = requireIdempotencyKey(c);
    const body = await readJsonObject(c);
    const input = validateRegistration(body);
    const result = runIdempotent(db, {
      scope: `widget:${key.key}`,
      key: idempotencyKey,
      requestHash: sha256Hex(`POST ${P}/registrations\n${canonicalJson(body)}`),
      now: deps.clock.now(),
      create: () => createRegistration(db, deps.clock.now(), key, input),
    });
    return sendJson(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  });
  app.all(`${P}/registrations`, () => {
    throw methodNotAllowed(['POST', 'OPTIONS']);
  });
}

function lookupKey(db: Db, c: AppContext): WidgetKeyRow {
  const key = c.req.query('key');
  if (key === undefined || key.trim() === '') {
    throw new ApiError(
      400,
      'missing-key',
      'No widget key: add the key=... parameter (the data-service-id of the placeholder).',
    );
  }
  const row =
    key.length <= 200
      ? (db
          .prepare(
            `SELECT k.key, k.company_id, co.name AS company_name, k.type, k.origins, k.options,
                    k.enabled, k.revoked_at
             FROM widget_keys k JOIN companies co ON co.id = k.company_id WHERE k.key = ?`,
          )
          .get(key) as WidgetKeyRow | undefined)
      : undefined;
  if (!row || row.revoked_at !== null) {
    throw new ApiError(
      401,
      'invalid-key',
      'The service does not know this widget key, or it was revoked. Copy the key again from the widget settings of the service.',
    );
  }
  return row;
}

function checkOrigin(c: AppContext, key: WidgetKeyRow): void {
  const origin = pageOrigin(c);
  if (origin === undefined) return;
  const origins = JSON.parse(key.origins) as string[];
  if (!originAllowed(origin, origins)) {
    const where =
      origin === 'unknown' ? 'this page (the browser did not send its origin)' : `pages on ${origin}`;
    throw new ApiError(
      403,
      'origin-not-allowed',
      `This widget key does not serve ${where}. Add the page's origin to the key's allowed origins in the widget settings of the service.`,
    );
  }
  c.set('allowedOrigin', c.req.header('origin'));
}

function checkTypeAndEnabled(key: WidgetKeyRow, type: WidgetType): void {
  if (key.type !== type) {
    throw new ApiError(
      403,
      'type-mismatch',
      `This key belongs to a ${key.type} widget, not a ${type} widget. Use data-service-widget="${key.type}", or the key of a ${type} widget.`,
    );
  }
  if (key.enabled !== 1) {
    throw new ApiError(
      403,
      'not-available',
      `The ${type} widget is not enabled for this key. Enable it in the widget settings of the service.`,
    );
  }
}

function requireIdempotencyKey(c: AppContext): string {
  const value = c.req.header('idempotency-key');
  if (value === undefined || value.length < 8 || value.length > 200) {
    throw new ApiError(
      400,
      'missing-idempotency-key',
      'Send an Idempotency-Key header (8 to 200 characters, for example a UUID) that stays the same when this submission is retried.',
    );
  }
  return value;
}

interface RegistrationInput {
  class_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}

const REGISTRATION_FIELDS = ['class_id', 'first_name', 'last_name', 'email', 'phone', 'consent'];
const PHONE = /^[+0-9 ()\-./]+$/;

/** Every field fault at once, each with how to fix it. */
function validateRegistration(body: JsonObject): RegistrationInput {
  const fields = unknownFields(body, REGISTRATION_FIELDS);

  const text = (name: string, label: string, max: number, emptyHint: string): string | null => {
    const value = body[name];
    if (value === undefined || value === null) {
      fields[name] = emptyHint;
      return null;
    }
    if (typeof value !== 'string') {
      fields[name] = `${label} must be text (a JSON string).`;
      return null;
    }
    const trimmed = value.trim();
    if (trimmed === '') fields[name] = emptyHint;
    else if (trimmed.length > max) fields[name] = `Shorten ${label.toLowerCase()} to at most ${max} characters.`;
    else if (CONTROL_CHARS.test(trimmed)) fields[name] = `Remove the control characters from ${label.toLowerCase()}.`;
    else return trimmed;
    return null;
  };

  const class_id = text('class_id', 'The class', 100, 'Choose a class.');
  const first_name = text('first_name', 'First name', 100, 'Enter your first name.');
  const last_name = text('last_name', 'Last name', 100, 'Enter your last name.');
  const email = text('email', 'Email', 254, 'Enter your email address.');
  if (email !== null && !EMAIL.test(email)) {
    fields.email = 'Enter a valid email address, like name@example.org.';
  }

  let phone: string | null = null;
  const rawPhone = body.phone;
  if (rawPhone !== undefined && rawPhone !== null) {
    if (typeof rawPhone !== 'string') fields.phone = 'Phone must be text (a JSON string).';
    else {
      const trimmed = rawPhone.trim();
      if (trimmed.length > 40) fields.phone = 'Shorten the phone number to at most 40 characters.';
      else if (trimmed !== '' && !PHONE.test(trimmed)) {
        fields.phone = 'Use digits, spaces and + ( ) - . / only in the phone number.';
      } else phone = trimmed === '' ? null : trimmed;
    }
  }

  const consent = body.consent;
  if (consent !== true) {
    fields.consent =
      consent === undefined || consent === false || consent === null
        ? 'Agree to the terms to register.'
        : 'Consent must be the JSON value true.';
  }

  if (Object.keys(fields).length > 0) throw validationError(fields);
  return {
    class_id: class_id!,
    first_name: first_name!,
    last_name: last_name!,
    email: email!.toLowerCase(),
    phone,
  };
}

/** Runs inside the idempotency transaction: the seat decision and every write are one unit. */
function createRegistration(db: Db, now: number, key: WidgetKeyRow, input: RegistrationInput) {
  const cls = getClass(db, input.class_id);
  if (!cls || cls.company_id !== key.company_id) {
    throw validationError({
      class_id: 'There is no such class. Choose a class from the list (it may have been removed).',
    });
  }
  if (cls.starts_at <= now) {
    throw validationError({ class_id: 'This class has already started. Choose an upcoming class.' });
  }
  const holder = db
    .prepare(
      `SELECT 1 FROM registrations WHERE class_id = ? AND email = ? AND status IN ('confirmed', 'waitlisted')`,
    )
    .get(cls.id, input.email);
  if (holder) {
    throw new ApiError(409, 'already-registered', 'This email already holds a place in this class.', {
      email: 'This email already holds a place in this class: check your inbox, or use another email.',
    });
  }

  const before = classState(cls);
  if (before.status === 'full') {
    throw new ApiError(
      409,
      'class-full',
      cls.waitlist === 1
        ? 'This class and its waitlist are full. Choose another date.'
        : 'This class is full and has no waitlist. Choose another date.',
      { class_id: 'This class is full. Choose another date.' },
    );
  }
  const status = before.status === 'open' ? 'confirmed' : 'waitlisted';

  const participant = db
    .prepare('SELECT id FROM participants WHERE company_id = ? AND email = ?')
    .get(key.company_id, input.email) as { id: string } | undefined;
  // An anonymous form never rewrites an existing participant's profile.
  const participantId = participant?.id ?? randomId('p');
  if (!participant) {
    db.prepare(
      `INSERT INTO participants (id, company_id, email, first_name, last_name, phone, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(participantId, key.company_id, input.email, input.first_name, input.last_name, input.phone, now);
  }

  const id = randomId('reg');
  db.prepare(
    `INSERT INTO registrations
     (id, class_id, participant_id, first_name, last_name, email, phone, status, created_at, widget_key)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, cls.id, participantId, input.first_name, input.last_name, input.email, input.phone, status, now, key.key);

  const after = classState({
    ...cls,
    confirmed: cls.confirmed + (status === 'confirmed' ? 1 : 0),
    waitlisted: cls.waitlisted + (status === 'waitlisted' ? 1 : 0),
  });

  const course = db.prepare('SELECT title FROM courses WHERE id = ?').get(cls.course_id) as {
    title: string;
  };
  queueEmail(db, now, registrationEmail({ ...input, id, status, course: course.title, cls, company: key.company_name }));

  return {
    status: 201,
    body: {
      registration: {
        id,
        course_id: cls.course_id,
        class_id: cls.id,
        status,
        created_at: isoTime(now),
      },
      class: { id: cls.id, seats_left: after.seats_left, status: after.status },
    },
  };
}

function registrationEmail(r: {
  id: string;
  first_name: string;
  email: string;
  status: 'confirmed' | 'waitlisted';
  course: string;
  company: string;
  cls: { starts_at: number; timezone: string; location: string; price_amount: number; currency: string };
}) {
  const when = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: r.cls.timezone,
  }).format(r.cls.starts_at);
  const price =
    r.cls.price_amount === 0
      ? 'free'
      : new Intl.NumberFormat('en-GB', { style: 'currency', currency: r.cls.currency }).format(
          r.cls.price_amount / 100,
        );
  const confirmed = r.status === 'confirmed';
  return {
    to: r.email,
    subject: `${confirmed ? 'Registration confirmed' : 'On the waitlist'}: ${r.course}`,
    text: [
      `Hello ${r.first_name},`,
      '',
      confirmed
        ? `you have a place in "${r.course}".`
        : `you are on the waitlist for "${r.course}". We will email you as soon as a place frees up.`,
      '',
      `When:  ${when} (${r.cls.timezone})`,
      `Where: ${r.cls.location}`,
      `Price: ${price}`,
      `Reference: ${r.id}`,
      '',
      r.company,
    ].join('\n'),
  };
}
