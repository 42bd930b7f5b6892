/**
 * Development-only endpoints (docs/service.md, "Running it"). They are
 * registered only when the service runs in development mode; otherwise their paths are 404.
 */
import { z } from 'zod';
import { isoTime } from '../../core/ids.ts';
import { invalidateTokens } from '../../domain/sign-in.ts';
import { sendJson, type ServiceDeps } from '../../http/context.ts';
import { error } from '../../http/docs.ts';
import { SubApp, readBody, type BodyCheck } from '../../http/routes.ts';
import {
  ClockRequest,
  ClockResponse,
  InvalidateTokensRequest,
  InvalidateTokensResponse,
  LoginLinkRequest,
  LoginLinkResponse,
  LoginLinksResponse,
  OutboxResponse,
  ResetResponse,
} from '../../../contract/api/dev.ts';
import { seedDocument } from './seed-document.ts';
import { registerDevWidgetKeyRoutes } from './widget-keys.ts';

const DEV = ['Development'];
const BODY_ERRORS = { '400': 'BadRequest', '415': 'UnsupportedMediaType', '422': 'Validation' };

/** Exactly one of `token` and `email`. */
const tokenOrEmail: BodyCheck = (raw, fields) => {
  const given = [raw.token, raw.email].filter((v) => v !== undefined).length;
  if (given !== 1) fields.token = 'Send either token (one token) or email (every token of that person).';
};

export function devRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp('/dev');
  const { store, clock, api } = deps;
  const { db } = store;
  const spec = (method: 'get' | 'post', path: string, operationId: string, summary: string) => ({
    method,
    path,
    tags: DEV,
    operationId,
    summary,
    security: [],
    dev: true,
  });

  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
  });

  app.get('/seed', () => sendJson(seedDocument(store.seedState.seededAt, clock.now())));

  api.add(
    app,
    {
      ...spec('get', '/dev/outbox', 'devOutbox', 'The emails the service has “sent”, newest first (`?to=` one address)'),
      parameters: [{ name: 'to', in: 'query', required: false, schema: { type: 'string', format: 'email' } }],
      responses: { '200': { description: 'The emails', schema: OutboxResponse } },
    },
    async (c) => {
      // Emails of calls already answered may still be on their way (core/jobs.ts): wait for them.
      await deps.jobs.idle();
      const to = c.req.query('to')?.trim().toLowerCase();
      const rows = await db
        .selectFrom('outbox')
        .selectAll()
        .$if(to !== undefined, (q) => q.where((eb) => eb(eb.fn('lower', ['to_addr']), '=', to!)))
        .orderBy('id', 'desc')
        .limit(200)
        .execute();
      return sendJson({
        emails: rows.map((r) => ({
          id: r.id,
          to: r.to_addr,
          subject: r.subject,
          text: r.text,
          link: r.link,
          pin: r.pin,
          sent_at: isoTime(r.sent_at),
          status: r.status,
          locale: r.locale as 'en' | 'de',
          attempts: r.attempts,
          last_error: r.last_error,
        })),
      });
    },
  );

  /** The clock's offset, for every process of the service (on PostgreSQL each reads it per request). */
  const shareClock = () =>
    db
      .insertInto('meta')
      .values({ k: 'clock_offset_ms', v: String(clock.offsetMs) })
      .onConflict((oc) => oc.column('k').doUpdateSet({ v: String(clock.offsetMs) }))
      .execute();
  const clockBody = () => ({ now: isoTime(clock.now()), offset_s: clock.offsetMs / 1000 });
  api.add(
    app,
    {
      ...spec('get', '/dev/clock', 'devClock', 'The service clock'),
      responses: { '200': { description: 'The time', schema: ClockResponse } },
    },
    () => sendJson(clockBody()),
  );
  api.add(
    app,
    {
      ...spec('post', '/dev/clock', 'devAdvanceClock', 'Moves the service clock forward'),
      body: ClockRequest,
      responses: { '200': { description: 'The time now', schema: ClockResponse }, ...BODY_ERRORS },
    },
    async (_c, body) => {
      clock.advance((await body()).advance_s);
      await shareClock();
      return sendJson(clockBody());
    },
  );

  api.add(
    app,
    {
      ...spec(
        'post',
        '/dev/tokens/invalidate',
        'devInvalidateTokens',
        'Invalidates one token, or every token of an email (users and participants)',
      ),
      body: InvalidateTokensRequest,
      responses: { '200': { description: 'How many were invalidated', schema: InvalidateTokensResponse }, ...BODY_ERRORS },
    },
    async (_c, body) => {
      const { token, email } = await body(tokenOrEmail);
      const now = clock.now();
      return sendJson({ invalidated: await invalidateTokens(db, { token, email }, now) });
    },
  );

  // The page each REST application's emailed link opens, set without editing the seed.
  const loginLinks = () =>
    db.selectFrom('applications').select(['id as application_id', 'name', 'login_link']).orderBy('id').execute();
  api.add(
    app,
    {
      ...spec('get', '/dev/login-links', 'devLoginLinks', 'The page each REST application’s emailed sign-in link opens'),
      responses: { '200': { description: 'The applications', schema: LoginLinksResponse } },
    },
    async () => sendJson({ applications: await loginLinks() }),
  );
  api.add(
    app,
    {
      ...spec('post', '/dev/login-links', 'devSetLoginLink', 'Sets the page a REST application’s emailed sign-in link opens'),
      body: LoginLinkRequest,
      responses: { '200': { description: 'The application', schema: LoginLinkResponse }, ...BODY_ERRORS },
    },
    async (_c, body) => {
      const known = await loginLinks();
      const { application_id, login_link } = await body((raw, fields) => {
        if (!('application_id' in fields) && !known.some((a) => a.application_id === raw.application_id)) {
          fields.application_id = `Send application_id, one of: ${known.map((a) => a.application_id).join(', ')}.`;
        }
      });
      await db.updateTable('applications').set({ login_link }).where('id', '=', application_id).execute();
      return sendJson((await loginLinks()).find((a) => a.application_id === application_id));
    },
  );

  api.add(
    app,
    {
      ...spec('post', '/dev/reset', 'devReset', 'Restores the seed, empties the outbox, resets the clock and the rate limits'),
      description:
        'Needs `Content-Type: application/json` (the body may be empty), so that no page of another site can send it. `{"times": 100}` makes the seed’s programmes, classes and registrations 100 times over (a copy’s ids end in `__2` … `__100`), for trying the service with a grown company.',
      responses: { '200': { description: 'Seeded again', schema: ResetResponse }, '415': error('`unsupported-media-type`') },
    },
    async (c) => {
      // Its JSON content type is required, even with no body: no page of another site can send it.
      const { times } = await readBody(c, ResetRequest, undefined, { optional: true });
      await deps.jobs.idle();
      clock.reset();
      await store.reset(times);
      await shareClock();
      for (const hook of deps.onReset) await hook();
      return sendJson({ ok: true, seeded_at: isoTime(store.seedState.seededAt) });
    },
  );

  registerDevWidgetKeyRoutes(app, deps, spec);
  return [app];
}

/**
 * `POST /dev/reset`: an empty body is `{}`. `times` makes the seed's programmes, classes and
 * registrations that many times over (the growth test and `npm run bench` use 100).
 */
const ResetRequest = z.strictObject({
  times: z
    .number({ message: 'times must be a whole number from 1 to 200, for example 100.' })
    .int('times must be a whole number from 1 to 200, for example 100.')
    .min(1, 'times must be at least 1 (the seed once).')
    .max(200, 'times may be at most 200.')
    .optional(),
});
