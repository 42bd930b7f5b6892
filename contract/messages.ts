/**
 * The site owner's fix-it line for each error code of a placeholder: what happened and how to fix it.
 * The loader says it (its `messages` chunk: the console, `diagnose()`, the event's `detail.message`,
 * and visibly on a development page); the demo's snippet checker says the same words.
 */
import { ATTRIBUTES, TRUSTED_TYPES_POLICY, WIDGET_TYPES, type ErrorCode } from './index.ts';

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
