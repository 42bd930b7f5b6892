/**
 * Contact messages (docs/widget-api.md, "Contact messages"): a form to the company, with spam
 * protection that needs no third party. The first render hands out a form token that signs when the
 * form was shown; a message sent sooner than `min_fill_ms` after it is refused as too fast, and one
 * whose invisible honeypot field (`website`) is filled is answered like any other but kept as spam.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { readJsonObject } from './body.ts';
import { isoTime, sendJson, type AppEnv, type ServiceDeps } from './context.ts';
import type { Db } from './db.ts';
import { ApiError, methodNotAllowed, validationError } from './errors.ts';
import { canonicalJson, runIdempotent } from './idempotency.ts';
import { randomId, sha256Hex } from './ids.ts';
import { clientAddress } from './auth.ts';
import { queueEmail } from './outbox.ts';
import { anonymousWriteLimits } from './rate-limit.ts';
import { personEmail, textField, unknownFields } from './validate.ts';
import { WIDGET_API_PREFIX, requireIdempotencyKey, widgetInfo, widgetKey, type WidgetKeyRow } from './widget-keys.ts';

/**
 * A form sent sooner than this after it was shown is a robot's: a person, even with autofill, needs
 * longer. The widget sends a too-early form again once this has passed, so a quick person is never
 * refused (docs/widget-api.md).
 */
export const CONTACT_MIN_FILL_MS = 1500;
export const CONTACT_LIMITS = { name: 100, subject: 150, messageMin: 10, messageMax: 5000 } as const;
const FIELDS = ['name', 'email', 'subject', 'topic', 'message', 'consent', 'website', 'form_token'];

/** What `GET /widget?type=contact` adds: the topics (always an array) and a fresh form token. */
export function contactFirstRender(deps: ServiceDeps, key: WidgetKeyRow) {
  const widget = widgetInfo(key);
  return {
    widget: { ...widget, options: { ...widget.options, topics: topicsOf(key) } },
    form: newForm(deps.store.secret, key, deps.clock.now()),
  };
}

/** A form token sends one message: each first render, and each message sent, hands out a new one. */
const newForm = (secret: string, key: WidgetKeyRow, now: number) => ({
  token: signFormToken(secret, key.key, now),
  min_fill_ms: CONTACT_MIN_FILL_MS,
});

export function registerContactApi(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const { db, secret } = deps.store;
  const { clock } = deps;
  const path = `${WIDGET_API_PREFIX}/contact-messages`;

  app.post(path, async (c) => {
    const key = widgetKey(db, c, 'contact');
    const idempotencyKey = requireIdempotencyKey(c);
    const body = await readJsonObject(c);
    const input = validateContact(body, key, secret);
    const address = clientAddress(c, deps.trustProxy);
    const result = runIdempotent(db, {
      scope: `widget:${key.key}`,
      key: idempotencyKey,
      requestHash: sha256Hex(`POST ${path}\n${canonicalJson(body)}`),
      now: clock.now(),
      create: () => {
        deps.limiter.take(anonymousWriteLimits(deps.limits, 'contact', address, key.key), 'messages');
        return createMessage(db, clock.now(), key, input, secret);
      },
    });
    return sendJson(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  });
  app.all(path, () => {
    throw methodNotAllowed(['POST', 'OPTIONS']);
  });
}

function topicsOf(key: WidgetKeyRow): string[] {
  const topics = (JSON.parse(key.options) as { topics?: unknown }).topics;
  return Array.isArray(topics) ? topics.filter((t): t is string => typeof t === 'string') : [];
}

/** `ft1.<issued, base 36 ms>.<nonce>.<HMAC of the widget key, the time and the nonce>`. */
export function signFormToken(secret: string, widgetKey: string, issuedAt: number): string {
  const payload = `${Math.floor(issuedAt).toString(36)}.${randomBytes(9).toString('base64url')}`;
  return `ft1.${payload}.${formMac(secret, widgetKey, payload)}`;
}

/** The issue time and nonce a genuine token of this widget key carries, or undefined. */
export function readFormToken(secret: string, widgetKey: string, token: string): { issuedAt: number; nonce: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'ft1' || !/^[0-9a-z]{1,11}$/.test(parts[1]!)) return undefined;
  const payload = `${parts[1]}.${parts[2]}`;
  const given = Buffer.from(parts[3]!, 'base64url');
  const expected = Buffer.from(formMac(secret, widgetKey, payload), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { issuedAt: parseInt(parts[1]!, 36), nonce: parts[2]! };
}

function formMac(secret: string, widgetKey: string, payload: string): string {
  return createHmac('sha256', secret).update(`contact-form\n${widgetKey}\n${payload}`).digest('base64url');
}

interface ContactInput {
  name: string;
  email: string;
  subject: string;
  topic: string | null;
  message: string;
  spam: boolean;
  issuedAt: number;
  nonce: string;
}

/** Every field fault at once. The form token is the widget's, so its message asks for a reload. */
function validateContact(body: Record<string, unknown>, key: WidgetKeyRow, secret: string): ContactInput {
  const fields = unknownFields(body, FIELDS);
  const L = CONTACT_LIMITS;
  const name = textField(body, 'name', fields, { label: 'Name', max: L.name, missing: 'Enter your name.', name: true });
  const email = personEmail(body, fields);
  const subject = textField(body, 'subject', fields, {
    label: 'Subject',
    max: L.subject,
    missing: 'Enter a subject: what is your message about?',
  });
  const message = textField(body, 'message', fields, {
    label: 'Message',
    min: L.messageMin,
    max: L.messageMax,
    missing: 'Write your message.',
    tooShort: `Write at least ${L.messageMin} characters in your message.`,
    multiline: true,
  });

  let topic: string | null = null;
  const topics = topicsOf(key);
  const rawTopic = body.topic;
  if (rawTopic !== undefined && rawTopic !== null && rawTopic !== '') {
    if (typeof rawTopic !== 'string') fields.topic = 'Topic must be text (a JSON string).';
    else if (topics.length === 0) fields.topic = 'This form has no topics: leave topic out.';
    else if (!topics.includes(rawTopic)) fields.topic = `Choose one of the topics: ${topics.join(', ')}.`;
    else topic = rawTopic;
  }

  if (body.consent !== true) {
    fields.consent =
      body.consent === undefined || body.consent === false || body.consent === null
        ? 'Agree that we store your message to answer it.'
        : 'Consent must be the JSON value true.';
  }

  // A person never sees `website`; anything in it marks a robot (answered as if all were well).
  const website = body.website;
  const spam = !(website === undefined || website === null || (typeof website === 'string' && website.trim() === ''));

  const token = body.form_token;
  let form: { issuedAt: number; nonce: string } | undefined;
  if (typeof token !== 'string' || token === '') {
    fields.form_token = 'The form token is missing: reload the form (it comes with the widget) and send again.';
  } else {
    form = token.length <= 200 ? readFormToken(secret, key.key, token) : undefined;
    if (form === undefined) {
      fields.form_token = 'The form token is not valid for this form: reload the form and send again.';
    }
  }

  if (Object.keys(fields).length > 0) throw validationError(fields);
  return { name: name!, email: email!, subject: subject!, topic, message: message!, spam, ...form! };
}

/**
 * Runs inside the idempotency transaction: a replay answers before the fill time is checked again.
 * The answer carries a new form token for the next message.
 */
function createMessage(db: Db, now: number, key: WidgetKeyRow, input: ContactInput, secret: string) {
  const used = db.prepare('SELECT 1 FROM contact_messages WHERE widget_key = ? AND form_nonce = ?').get(key.key, input.nonce);
  if (used) {
    throw new ApiError(
      409,
      'form-token-used',
      'This form has already sent a message: each message needs a new form token (the answer to a message, and each first render, carries one).',
      { form_token: 'This form has already sent a message: reload the form to write another.' },
    );
  }
  const wait = input.issuedAt + CONTACT_MIN_FILL_MS - now;
  if (!input.spam && wait > 0) {
    throw new ApiError(
      422,
      'too-fast',
      'This message was sent very quickly after the form appeared: check your message and send it again.',
      undefined,
      {},
      { retry_after_ms: wait },
    );
  }
  const id = randomId('msg');
  db.prepare(
    `INSERT INTO contact_messages
     (id, company_id, widget_key, name, email, subject, topic, message, spam, form_issued_at, form_nonce, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    key.company_id,
    key.key,
    input.name,
    input.email,
    input.subject,
    input.topic,
    input.message,
    input.spam ? 1 : 0,
    input.issuedAt,
    input.nonce,
    now,
  );
  if (!input.spam) {
    const company = db.prepare('SELECT contact_email FROM companies WHERE id = ?').get(key.company_id) as {
      contact_email: string;
    };
    queueEmail(db, now, {
      to: company.contact_email,
      subject: `Contact form: ${input.subject}`,
      text: [
        `A message from the contact form of ${key.company_name}.`,
        '',
        `From:    ${input.name} <${input.email}>`,
        ...(input.topic !== null ? [`Topic:   ${input.topic}`] : []),
        `Subject: ${input.subject}`,
        '',
        input.message,
        '',
        `Reply to ${input.email} to answer. Reference: ${id}`,
      ].join('\n'),
    });
  }
  return { status: 201, body: { message: { id, created_at: isoTime(now) }, form: newForm(secret, key, now) } };
}
