/**
 * CORS of the widget API, on purpose: a successful answer carries `Access-Control-Allow-Origin`
 * only for page origins the key serves, an error answer for any origin (so that a widget on a
 * refused page can read why and tell the site owner); a preflight passes for the key's origins
 * only. The REST API answers no CORS at all (features/rest/routes.ts).
 */
import type { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from '../http/context.ts';
import { checkOrigin, lookupKey } from './keys.ts';

export function widgetApiCors(app: Hono<AppEnv>, deps: ServiceDeps): void {
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
  app.options('/widget-api/*', async (c) => {
    checkOrigin(c, await lookupKey(deps.store.db, c));
    return new Response(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key, X-Service-Token, X-Order-Token',
        'Access-Control-Max-Age': '600',
      },
    });
  });
}
