/**
 * Origins as a widget takes them, checked before they are sent, so that a fault is said in the app's
 * words beside the field: `https://` and a host, a port if not the default (`:*` for any), no path.
 * In development the service also takes plain http on this machine. The service checks them again
 * and has the last word.
 */
import { secure } from '../../demo/src/check.ts';
import type { Words } from './i18n.ts';

const ORIGIN = /^(https?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:(\d{1,5}|\*))?\/?$/i;

/** A host of this machine, where plain http is a secure context too (the loader's rule: check.ts's `secure`). */
export function local(host: string): boolean {
  try {
    return secure(new URL(`http://${host}`));
  } catch {
    return false;
  }
}

/** The origin as the service keeps it (lower-case, no trailing slash), or what is wrong with it. */
export function checkOrigin(t: Words, raw: string, dev: boolean): { origin: string } | { fault: string } {
  const text = raw.trim();
  const match = ORIGIN.exec(text);
  if (!match) return { fault: t.originFormat(text) };
  const [, scheme, host] = match;
  if (scheme!.toLowerCase() === 'http' && !(dev && local(host!))) return { fault: t.originInsecure(text) };
  return { origin: text.replace(/\/$/, '').replace(/^[a-z]+:\/\/[^/:]+/i, (start) => start.toLowerCase()) };
}

/** Every line an origin, or the first fault. */
export function checkOrigins(t: Words, lines: string, dev: boolean): { origins: string[] } | { fault: string } {
  const origins: string[] = [];
  for (const line of lines
    .split(/[\n,]+/)
    .map((l) => l.trim())
    .filter(Boolean)) {
    const checked = checkOrigin(t, line, dev);
    if ('fault' in checked) return checked;
    if (!origins.includes(checked.origin)) origins.push(checked.origin);
  }
  if (origins.length === 0) return { fault: t.originMissing };
  if (origins.length > 20) return { fault: t.originTooMany };
  return { origins };
}
