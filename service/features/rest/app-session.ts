/**
 * The service app's session (`/app/`): its users' tokens live in an HttpOnly, SameSite=Strict cookie
 * (Secure, with the `__Host-` prefix, wherever the service is reached over https), never in an answer
 * or the page. A change (any method but GET) carries the value of a second, readable cookie in
 * `X-CSRF-Token`; that value is derived from the token, so it needs no table and dies with it. The
 * app's requests also carry its `X-SERVICE-API-KEY`, which no other site's page can send without a
 * CORS preflight that the REST API refuses.
 */
import { getCookie } from 'hono/cookie';
import { sha256Hex } from '../../core/ids.ts';
import type { AppContext, ServiceDeps } from '../../http/context.ts';
import { ApiError } from '../../http/errors.ts';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../../contract/api/rest.ts';
import { APP_SESSION_TTL_MS } from './store.ts';

/** The app's cookies as this service names them: `__Host-` where they are Secure. */
export function appCookies(deps: Pick<ServiceDeps, 'publicUrl'>) {
  const secure = deps.publicUrl.startsWith('https:');
  const prefix = secure ? '__Host-' : '';
  const names = { session: `${prefix}${SESSION_COOKIE}`, csrf: `${prefix}${CSRF_COOKIE}` };
  const cookie = (name: string, value: string, maxAge: number, httpOnly: boolean) =>
    [
      `${name}=${value}`,
      'Path=/',
      `Max-Age=${maxAge}`,
      'SameSite=Strict',
      ...(httpOnly ? ['HttpOnly'] : []),
      ...(secure ? ['Secure'] : []),
    ].join('; ');
  return {
    names,
    /** The session's token, as the request's cookie holds it. */
    token: (c: AppContext): string | undefined => getCookie(c, names.session) || undefined,
    /** Set-Cookie lines of a new session. */
    set: (token: string) => [
      cookie(names.session, token, APP_SESSION_TTL_MS / 1000, true),
      cookie(names.csrf, csrfOf(token), APP_SESSION_TTL_MS / 1000, false),
    ],
    /** Set-Cookie lines that end both. */
    clear: () => [cookie(names.session, '', 0, true), cookie(names.csrf, '', 0, false)],
  };
}

/** The CSRF value of a session: the page reads it from its cookie, an attacker's page cannot. */
const csrfOf = (token: string) => sha256Hex(`csrf:${token}`);

/** Refuses a change (any method but GET and HEAD) whose `X-CSRF-Token` is not its session's. */
export function checkCsrf(c: AppContext, token: string, cookie: string): void {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return;
  if (c.req.header(CSRF_HEADER) !== csrfOf(token)) {
    throw new ApiError(
      403,
      'csrf-failed',
      `This change carried no valid ${CSRF_HEADER} header: the service's app sends the value of its ${cookie} cookie. Reload the app and try again.`,
    );
  }
}

/** An answer with these Set-Cookie lines added. */
export function withCookies(response: Response, lines: string[]): Response {
  for (const line of lines) response.headers.append('Set-Cookie', line);
  return response;
}
