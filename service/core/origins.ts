/** Page origins: which one a request comes from, and whether a key's list allows it. */
import type { Context } from 'hono';

/**
 * The page origin of a request, per the widget API's rules:
 * - the `Origin` header when there is one;
 * - no `Origin` but `Sec-Fetch-Site: same-origin`: the service's own origin;
 * - neither header (curl, a server), or `Sec-Fetch-Site: none` (a person typing the URL):
 *   `undefined`, not a page, so not origin-checked;
 * - `Sec-Fetch-Site: same-site` / `cross-site` without `Origin` (an image, a navigation from another
 *   site): a page whose origin the browser withheld, `'unknown'`, which no key allows.
 */
export function pageOrigin(c: Context): string | undefined {
  const origin = c.req.header('origin');
  if (origin !== undefined) return origin;
  const site = c.req.header('sec-fetch-site');
  if (site === undefined || site === 'none') return undefined;
  if (site === 'same-origin') return new URL(c.req.url).origin;
  return 'unknown';
}

/**
 * The origins of the service's own pages (the app's live preview), which every widget key serves:
 * that of its public URL and, in development, the same port on this machine's other names.
 */
export function ownOrigins(publicUrl: string, development: boolean): string[] {
  const url = new URL(publicUrl);
  if (!development) return [url.origin];
  const port = url.port ? `:${url.port}` : '';
  return [...new Set([url.origin, ...['localhost', '127.0.0.1', '[::1]'].map((host) => `${url.protocol}//${host}${port}`)])];
}

/**
 * A pattern is an exact origin (`https://example.com`, `http://localhost:5173`), one with any port
 * (`http://localhost:*`), or `*` (any page).
 */
export function originAllowed(origin: string, patterns: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return patterns.includes('*'); // "null" (sandboxed frames, file:) and "unknown"
  }
  if (url.origin !== origin.toLowerCase().replace(/\/$/, '')) return false;
  return patterns.some((pattern) => {
    if (pattern === '*') return true;
    const anyPort = pattern.endsWith(':*');
    let p: URL;
    try {
      p = new URL(anyPort ? pattern.slice(0, -2) : pattern);
    } catch {
      return false;
    }
    return p.protocol === url.protocol && p.hostname === url.hostname && (anyPort || p.port === url.port);
  });
}
