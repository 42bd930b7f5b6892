/**
 * The public widget API (docs/widget-api.md): authenticated by the widget key alone, which travels
 * as the `key` query parameter so that a first render is one simple GET with no preflight.
 */
import type { Hono } from 'hono';
import { readJsonObject, type JsonObject } from './body.ts';
import { classState, formatClassStart, getClass, listCourses, publicClass } from './catalog.ts';
import { contactFirstRender, registerContactApi } from './contact.ts';
import { isoTime, sendJson, type AppEnv, type ServiceDeps } from './context.ts';
import type { Db } from './db.ts';
import { ApiError, methodNotAllowed, validationError } from './errors.ts';
import { canonicalJson, runIdempotent } from './idempotency.ts';
import { clientAddress } from './auth.ts';
import { randomId, sha256Hex } from './ids.ts';
import { queueEmail } from './outbox.ts';
import { anonymousWriteLimits, type Limits, type RateLimiter } from './rate-limit.ts';
import { registerParticipantApi } from './participants.ts';
import { WIDGET_TYPES, type WidgetType } from './seed.ts';
import { PERSON_TEXT, personEmail, phoneField, textField, unknownFields } from './validate.ts';
import {
  checkOrigin,
  checkTypeAndEnabled,
  lookupKey,
  requireIdempotencyKey,
  WIDGET_API_PREFIX,
  widgetInfo,
  type WidgetKeyRow,
} from './widget-keys.ts';

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
      headers.set('Access-Control-Expose-Headers', 'Idempotent-Replayed, Retry-After');
    }
  });

  // Preflight (writes only: GETs are simple requests). It passes for the key's origins only.
  app.options('/widget-api/*', (c) => {
    checkOrigin(c, lookupKey(db, c));
    return new Response(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key, X-Service-Token',
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

    const body: Record<string, unknown> = { widget: widgetInfo(key) };
    if (key.type === 'contact') Object.assign(body, contactFirstRender(deps, key));
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
    const address = clientAddress(c, deps.trustProxy);
    const result = runIdempotent(db, {
      scope: `widget:${key.key}`,
      key: idempotencyKey,
      requestHash: sha256Hex(`POST ${P}/registrations\n${canonicalJson(body)}`),
      now: deps.clock.now(),
      create: () => {
        // Counted here, so that a replay of the same submission is not.
        deps.limiter.take(anonymousWriteLimits(deps.limits, 'registration', address, key.key), 'registrations');
        return createRegistration(db, deps.clock.now(), key, input, deps);
      },
    });
    return sendJson(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  });
  app.all(`${P}/registrations`, () => {
    throw methodNotAllowed(['POST', 'OPTIONS']);
  });

  registerParticipantApi(app, deps);
  registerContactApi(app, deps);
}

interface RegistrationInput {
  class_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}

const REGISTRATION_FIELDS = ['class_id', 'first_name', 'last_name', 'email', 'phone', 'consent'];

/** Every field fault at once, each with how to fix it. */
function validateRegistration(body: JsonObject): RegistrationInput {
  const fields = unknownFields(body, REGISTRATION_FIELDS);

  const class_id = textField(body, 'class_id', fields, { label: 'The class', max: 100, missing: 'Choose a class.' });
  const first_name = textField(body, 'first_name', fields, PERSON_TEXT.first_name);
  const last_name = textField(body, 'last_name', fields, PERSON_TEXT.last_name);
  const email = personEmail(body, fields);
  const phone = phoneField(body, 'phone', fields);

  const consent = body.consent;
  if (consent !== true) {
    fields.consent =
      consent === undefined || consent === false || consent === null
        ? 'Agree to the terms to register.'
        : 'Consent must be the JSON value true.';
  }

  if (Object.keys(fields).length > 0) throw validationError(fields);
  return { class_id: class_id!, first_name: first_name!, last_name: last_name!, email: email!, phone };
}

/**
 * Runs inside the idempotency transaction: the seat decision and every write are one unit. The
 * answer never depends on whether the email already holds a place (a stranger learns nothing about
 * other people's bookings): a full class is full for everyone, and someone already booked gets the
 * answer a new registration would get, while the email tells them the truth.
 */
function createRegistration(
  db: Db,
  now: number,
  key: WidgetKeyRow,
  input: RegistrationInput,
  deps: { limiter: RateLimiter; limits: Limits },
) {
  const cls = getClass(db, input.class_id);
  if (!cls || cls.company_id !== key.company_id) {
    throw validationError({
      class_id: 'There is no such class. Choose a class from the list (it may have been removed).',
    });
  }
  if (cls.starts_at <= now) {
    throw validationError({ class_id: 'This class has already started. Choose an upcoming class.' });
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
  const after = classState({
    ...cls,
    confirmed: cls.confirmed + (status === 'confirmed' ? 1 : 0),
    waitlisted: cls.waitlisted + (status === 'waitlisted' ? 1 : 0),
  });
  const course = db.prepare('SELECT title FROM courses WHERE id = ?').get(cls.course_id) as { title: string };
  const answer = (id: string) => ({
    status: 201,
    body: {
      registration: { id, course_id: cls.course_id, class_id: cls.id, status, created_at: isoTime(now) },
      class: { id: cls.id, seats_left: after.seats_left, status: after.status },
    },
  });
  // Confirmation emails to one address are throttled: a form cannot be used to flood a mailbox.
  const mayEmail = () =>
    deps.limiter.tryTake([{ key: `confirmation-email:${input.email}`, ...deps.limits.confirmationEmail.perRecipient }]);

  const holder = db
    .prepare(
      `SELECT id, status, first_name FROM registrations WHERE class_id = ? AND email = ? AND status IN ('confirmed', 'waitlisted')`,
    )
    .get(cls.id, input.email) as { id: string; status: 'confirmed' | 'waitlisted'; first_name: string } | undefined;
  if (holder) {
    if (mayEmail()) {
      queueEmail(
        db,
        now,
        registrationEmail({ ...input, ...holder, course: course.title, cls, company: key.company_name, again: true }),
      );
    }
    return answer(holder.id);
  }

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

  if (mayEmail()) {
    queueEmail(db, now, registrationEmail({ ...input, id, status, course: course.title, cls, company: key.company_name }));
  }
  return answer(id);
}

function registrationEmail(r: {
  id: string;
  first_name: string;
  email: string;
  status: 'confirmed' | 'waitlisted';
  course: string;
  company: string;
  cls: { starts_at: number; timezone: string; location: string; price_amount: number; currency: string };
  /** Registered again for a class where the email already holds this place. */
  again?: boolean;
}) {
  const when = formatClassStart(r.cls.starts_at, r.cls.timezone);
  const price =
    r.cls.price_amount === 0
      ? 'free'
      : new Intl.NumberFormat('en-GB', { style: 'currency', currency: r.cls.currency }).format(
          r.cls.price_amount / 100,
        );
  const confirmed = r.status === 'confirmed';
  return {
    to: r.email,
    subject: `${r.again ? 'You are already registered' : confirmed ? 'Registration confirmed' : 'On the waitlist'}: ${r.course}`,
    text: [
      `Hello ${r.first_name},`,
      '',
      ...(r.again ? ['someone registered this address again for a class where it already holds a place. Nothing has changed:', ''] : []),
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
