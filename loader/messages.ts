/**
 * What the loader says when a placeholder fails: the site owner's fix-it line (console, diagnose(),
 * the event's `detail.message`, and visible on a development page) and the visitor's short line. A
 * chunk of its own, loaded only when something fails, so that the loader stays small.
 */
import { ATTRIBUTES, TRUSTED_TYPES_POLICY, WIDGET_TYPES, type ErrorCode } from '../contract/index.ts';

export interface Facts {
  type: string;
  version?: number;
  /** The loader's own URL. */
  src: string;
  /** What the browser said, for `script-error`. */
  reason?: string;
}

const other = ({ version, src }: Facts) => new URL(`../v${version}/loader.js`, src).href;

/** The owner's line: what happened and how to fix it. */
export const fixes: Partial<Record<ErrorCode, (facts: Facts) => string>> = {
  'unknown-type': ({ type }) =>
    `Unknown widget type "${type}". Set ${ATTRIBUTES.type} to one of: ${Object.keys(WIDGET_TYPES).join(', ')}.`,
  'wrong-loader': (facts) =>
    `"${facts.type}" is a v${facts.version} widget: add <script async src="${other(facts)}"></script> to the page.`,
  'insecure-page': ({ type }) => `Serve this page over https:// to show the ${type} widget (it is not a secure page).`,
  'missing-key': () => `The widget key is missing. Add ${ATTRIBUTES.key}="YOUR_WIDGET_KEY" to the div.`,
  'not-available': ({ type }) => `The ${type} widget is not available yet in this version of the service.`,
  network: ({ type, src }) => `Could not load the ${type} widget from ${src}. Check the connection and reload the page.`,
  'script-error': ({ type, reason }) =>
    /trusted/i.test(reason ?? '')
      ? `The ${type} widget could not start: this page's Trusted Types policy refused it (${reason}). Allow the policy "${TRUSTED_TYPES_POLICY}" in the page's Content-Security-Policy (trusted-types ${TRUSTED_TYPES_POLICY}).`
      : `The ${type} widget could not start on this page: ${reason}`,
};

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

/** `[the owner's line, the line shown in the div]` for a placeholder that failed with `code`. */
export const explain = (code: ErrorCode, facts: Facts, div: HTMLElement): [string, string] => {
  const message = fixes[code]!(facts);
  const lang = (div.getAttribute(ATTRIBUTES.locale) || div.closest('[lang]')?.getAttribute('lang') || navigator.language).slice(
    0,
    2,
  );
  return [message, isDevelopmentPage() ? message : visitor[lang === 'de' ? 'de' : 'en']];
};
