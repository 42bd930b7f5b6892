/**
 * What the loader says when a placeholder fails: the site owner's fix-it line (console, diagnose(),
 * the event's `detail.message`, and visible on a development page) and the visitor's short line. A
 * chunk of its own, loaded only when something fails, so that the loader stays small.
 */
import { ATTRIBUTES, type ErrorCode } from '../contract/index.ts';
import { fixes, type Facts } from '../contract/messages.ts';
import type { DiagnoseRow } from '../contract/page.ts';

export type { Facts };

/** The visitor's line, in the page's language: short and kind; the owner's content stays beside it. */
const visitor = {
  en: 'This part of the page cannot be shown right now.',
  de: 'Dieser Teil der Seite kann gerade nicht angezeigt werden.',
};

/**
 * A page the site owner is building: `localhost`, `127.0.0.1`, `[::1]`, `*.localhost` or a file.
 * There the owner's fix-it line shows in the div; elsewhere visitors read their own line, and the
 * owner finds theirs in the console and in `ServiceWidgets.diagnose()`.
 */
export const isDevelopmentPage = () =>
  location.protocol === 'file:' || /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|.+\.localhost)$/.test(location.hostname);

/**
 * `[the owner's line, the line shown in the div]` for a placeholder that failed with `code`; the
 * owner's line also goes to the console (a widget's own errors are said by the widget: base.ts).
 */
export const explain = (code: ErrorCode, facts: Facts, div: HTMLElement): [string, string] => {
  let message = fixes[code]!(facts);
  // A page that pins the widgets' code by an import map's hashes: the browser refuses a file that differs,
  // as a failed fetch, and says which in the console.
  if (code === 'network' && document.querySelector('script[type=importmap]')?.textContent?.includes('"integrity"'))
    message += ` This page's import map pins the widgets' code by its hashes: if the console says a file was blocked for its integrity, paste the snippet of the loader's release again (its integrity.json).`;
  console.error(`[service-widgets] ${facts.type || '(no type)'}: ${message}`);
  const lang = (div.getAttribute(ATTRIBUTES.locale) || div.closest('[lang]')?.getAttribute('lang') || navigator.language).slice(
    0,
    2,
  );
  return [message, isDevelopmentPage() ? message : visitor[lang === 'de' ? 'de' : 'en']];
};

/** A placeholder the loader has claimed, as `diagnose()` reads it. */
export interface Claimed {
  div: HTMLElement;
  type: string;
  /** Its loader's version (0: an unknown type). */
  version: number;
  state: string;
  error?: string;
}

/**
 * `ServiceWidgets.diagnose()`: prints and returns a row per placeholder in the document. Here rather
 * than in the loader, which every page pays for: a developer's question can wait for a chunk.
 */
export const diagnose = (placeholders: Map<HTMLElement, Claimed>): DiagnoseRow[] => {
  const rows = [...placeholders.values()].map(({ div, type, version, state, error = '' }) => ({
    type,
    version: version ? 'v' + version : '',
    state,
    error,
    element: div,
  }));
  console.table(rows);
  return rows;
};

/** What the loader imports of this chunk. */
export interface Messages {
  explain: typeof explain;
  diagnose: typeof diagnose;
}
