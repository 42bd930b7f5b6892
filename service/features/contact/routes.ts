/**
 * Contact messages (docs/widget-api.md, "Contact messages"): a form to the company, with spam
 * protection that needs no third party. The first render hands out a form token that signs when the
 * form was shown; a message sent sooner than `min_fill_ms` after it is refused as too fast, and one
 * whose invisible honeypot field (`website`) is filled is answered like any other but kept as spam.
 */
import type { ServiceDeps } from '../../http/context.ts';
import { error, widgetWrite } from '../../http/docs.ts';
import { SubApp, type BodyCheck } from '../../http/routes.ts';
import { anonymousWrite } from '../../widget-api/anonymous-write.ts';
import { WIDGET_API_PREFIX, requireIdempotencyKey, widgetInfo, widgetKey, type WidgetKeyRow } from '../../widget-api/keys.ts';
import { readFormToken, signFormToken } from './form-token.ts';
import {
  CONTACT_MIN_FILL_MS,
  ContactMessageRequest,
  ContactMessageResponse,
  INVALID_TOKEN,
  type ContactForm,
} from '../../../contract/api/contact.ts';
import { createMessage } from './store.ts';

/** What `GET /widget?type=contact` adds: the topics (always an array) and a fresh form token. */
function contactFirstRender(deps: ServiceDeps, key: WidgetKeyRow) {
  const widget = widgetInfo(key);
  return {
    widget: { ...widget, options: { ...widget.options, topics: topicsOf(key) } },
    form: newForm(deps.store.secret, key, deps.clock.now()),
  };
}

/** A form token sends one message: each first render, and each message sent, hands out a new one. */
const newForm = (secret: string, key: WidgetKeyRow, now: number): ContactForm => ({
  token: signFormToken(secret, key.key, now),
  min_fill_ms: CONTACT_MIN_FILL_MS,
});

function topicsOf(key: WidgetKeyRow): string[] {
  const topics = (JSON.parse(key.options) as { topics?: unknown }).topics;
  return Array.isArray(topics) ? topics.filter((t): t is string => typeof t === 'string') : [];
}

/** The topic must be one of the widget's; the form token must be this widget's. */
const contactChecks =
  (key: WidgetKeyRow, secret: string): BodyCheck =>
  (raw, fields) => {
    const topics = topicsOf(key);
    const topic = raw.topic;
    if (!('topic' in fields) && typeof topic === 'string' && topic !== '') {
      if (topics.length === 0) fields.topic = 'This form has no topics: leave topic out.';
      else if (!topics.includes(topic)) fields.topic = `Choose one of the topics: ${topics.join(', ')}.`;
    }
    if (!('form_token' in fields) && typeof raw.form_token === 'string' && !readFormToken(secret, key.key, raw.form_token)) {
      fields.form_token = INVALID_TOKEN;
    }
  };

export function contactRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp(`${WIDGET_API_PREFIX}/contact-messages`);
  const { secret } = deps.store;
  deps.firstRenders.add('contact', (key) => contactFirstRender(deps, key));
  const path = `${WIDGET_API_PREFIX}/contact-messages`;
  deps.api.add(
    app,
    {
      method: 'post',
      path,
      tags: ['Widget API'],
      operationId: 'createContactMessage',
      summary: 'Send the company a message (contact keys, idempotent)',
      description: `The company is emailed a notification. Spam protection needs no third party: a filled \`website\` honeypot is answered 201 like any message but kept as spam and notifies nobody; a form sent sooner than ${CONTACT_MIN_FILL_MS} ms (\`form.min_fill_ms\`) after its \`form.token\` was issued (service clock) is 422 \`too-fast\` with \`retry_after_ms\` (the widget sends it again then, so a quick person is never refused). A form token sends one message (409 \`form-token-used\` after); the answer carries the \`form\` of the next message. The same \`Idempotency-Key\` with the same body answers the first message again (200, \`Idempotent-Replayed: true\`). Rate-limited per client address and per key.`,
      ...widgetWrite(ContactMessageRequest, ContactMessageResponse, 'Sent', {
        '409': error('`form-token-used` (`fields.form_token`): this form already sent a message; `idempotency-key-reused`'),
        '422': error(
          '`validation` (see `fields`; a missing or forged token is `fields.form_token`), `too-fast` (with `retry_after_ms`): send it again after that long',
        ),
        '429': 'RateLimited',
      }),
    },
    async (c, body) => {
      const key = await widgetKey(deps.store.db, c, 'contact');
      const idempotencyKey = requireIdempotencyKey(c);
      const input = await body(contactChecks(key, secret));
      const form = readFormToken(secret, key.key, input.form_token)!;
      // A person never sees `website`; anything in it marks a robot (answered as if all were well).
      const spam = (input.website ?? '').trim() !== '';
      return anonymousWrite(deps, c, key, {
        idempotencyKey,
        request: `POST ${path}`,
        input,
        limit: 'contact',
        counted: 'messages',
        create: (tx, countAttempt) =>
          createMessage(
            tx,
            deps.clock.now(),
            key,
            { ...input, topic: input.topic || null, spam, ...form },
            {
              form: () => newForm(secret, key, deps.clock.now()),
              countAttempt,
            },
          ),
      });
    },
  );
  return [app];
}
