import { LitElement, html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { ErrorCode } from '../../contract/index.ts';
import type { WidgetElement, WidgetLoadState } from '../../contract/page.ts';
import { ApiError, WidgetApi } from './api.ts';
import { errorText, resolveLocale, sharedText, type Locale } from './i18n.ts';

export type LoadState = WidgetLoadState;

/**
 * A page the site owner is building (`localhost`, `127.0.0.1`, `[::1]`, `*.localhost`, a file): there
 * an error shows the owner's fix-it line beside the visitor's. The loader's messages (loader/messages.ts)
 * follow the same rule.
 */
const developmentPage = () =>
  location.protocol === 'file:' || /^(localhost|127\.[\d.]+|\[::1\]|.+\.localhost)$/.test(location.hostname);

/**
 * What every widget shares: the public attributes the loader sets (`key`, `base-url`, `locale`), the
 * API client, the resolved locale, the widget's data load with its three states drawn alike in every
 * widget (`renderState`) and each outcome told to the loader (`service-state`: the element handshake
 * of contract/page.ts, `WidgetElement`), and the focus moving to each new step's heading.
 *
 * A widget implements `load()` (its one first-render request) and names in `loadArgs` the properties
 * that, changed, load again; `step()` names what it shows (its forms' writes go through their
 * `FormState`, form.ts). This
 * replaces `@lit/task`, which costs 1.1 KB gzip of a 14 KB budget for what these few lines do; for the
 * same reason reactive properties are declared in `static properties` rather than with decorators.
 */
export abstract class ServiceElement<Data = unknown> extends LitElement implements WidgetElement {
  static override properties: PropertyDeclarations = {
    key: {},
    baseUrl: { attribute: 'base-url' },
    locale: {},
    loadState: { state: true },
    data: { state: true },
    error: { state: true },
  };

  /**
   * Codes of the service that this widget reports to the loader as another of the contract's codes
   * (contract/index.ts, ERROR_CODES), for example an unknown `course` option as `not-available`.
   */
  protected static errorCodes?: Record<string, ErrorCode>;

  /** The public widget key (`data-service-id` on a placeholder). */
  key = '';

  /** The service's base URL; the loader sets it from its own URL. Defaults to this page's origin. */
  baseUrl = '';

  /** `en` or `de`; default: the nearest `lang` attribute, then the browser's language. */
  locale = '';

  /** @internal Injected `fetch` (tests); the browser's own by default. */
  fetch?: typeof fetch;

  /** The state of the data load; `service-state` (not bubbling) tells the loader each outcome. */
  loadState: LoadState = 'loading';
  data?: Data;
  error?: ApiError;

  /** The error code for the loader (contract/index.ts): a service that failed or answered nonsense is `network`. */
  get errorCode(): ErrorCode | undefined {
    const code = this.error?.code;
    return (
      (this.constructor as typeof ServiceElement).errorCodes?.[code!] ??
      (this.error?.retryable || code === 'unexpected' ? 'network' : (code as ErrorCode))
    );
  }

  /** What went wrong, for the site owner: the service's own words, which say how to fix it (ours for a service unreachable). */
  get errorMessage() {
    return this.error?.shown;
  }

  /** Properties whose change loads the data again. */
  protected loadArgs: PropertyKey[] = ['key', 'baseUrl', 'locale'];
  #abort?: AbortController;
  /** The step last drawn (`''`: none yet, so the page keeps its focus). */
  #step = '';

  protected abstract load(signal: AbortSignal): Promise<Data>;

  /** Loads the words of the widget's locale, in parallel with `load()`. */
  protected abstract loadWords(locale: Locale): Promise<void>;

  /** What the ready widget shows (`list`, `form`, `done` …): when it changes, the focus moves to the new step's `[data-focus]`. */
  protected step(): string {
    return '';
  }

  /** The next step change leaves the focus where it is (it happened elsewhere on the page). */
  protected keepFocus() {
    this.#step = '';
  }

  /** The locale the widget speaks (`locale`, else the page's, else the browser's). */
  get resolvedLocale(): Locale {
    return resolveLocale(this.locale, this.closest('[lang]')?.getAttribute('lang'), navigator.language);
  }

  /** The widget API client for this widget's service and key. */
  protected get api() {
    return new WidgetApi({
      baseUrl: this.baseUrl || location.origin,
      key: this.key,
      fetch: this.fetch,
      locale: this.resolvedLocale,
    });
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>) {
    if (this.loadArgs.some((name) => changed.has(name))) this.reload();
  }

  protected override updated() {
    // A new step (after loading, sending, signing in …) takes the focus to its heading; the first
    // one does not (the page keeps its focus), nor does loading (the next step will).
    if (this.loadState === 'loading') return;
    const step = this.loadState + this.step();
    if (this.#step && step !== this.#step) this.renderRoot.querySelector<HTMLElement>('[data-focus]')?.focus();
    this.#step = step;
  }

  override connectedCallback() {
    super.connectedCallback();
    // Moved while loading (its load was stopped on disconnect): load again.
    if (this.loadState === 'loading' && this.#abort?.signal.aborted) this.reload();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#abort?.abort();
  }

  /** (Re)loads the data: the retry button and changed attributes call this. Resolves when settled. */
  reload() {
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    this.loadState = 'loading';
    const done = (state: 'ready' | 'error', data?: Data, error?: ApiError) => {
      if (abort.signal.aborted) return;
      Object.assign(this, { loadState: state, data, error });
      // The site owner's line in the console, once an outcome (the loader's own errors are said by it).
      if (error) console.error(`[service-widgets] ${this.localName.slice(8)}: ${error.shown}`);
      this.dispatchEvent(new CustomEvent('service-state', { detail: { state, code: this.errorCode, message: error?.shown } }));
    };
    const words = this.loadWords(this.resolvedLocale);
    return Promise.all([
      this.key.trim() ? this.load(abort.signal) : Promise.reject(new ApiError(400, 'missing-key', MISSING_KEY)),
      words,
    ]).then(
      ([data]) => done('ready', data),
      // The message is shown in the visitor's language: wait for its words.
      (error: unknown) => words.then(() => done('error', undefined, toApiError(error, this.resolvedLocale))),
    );
  }

  /**
   * The widget in its load state, the same in every widget: while loading a skeleton (in the space
   * the loader reserves) and an announcement; on error the visitor's line, the owner's fix-it line on
   * a development page, and a retry where one can help; else `ready(data)`.
   */
  protected renderState(ready: (data: Data) => unknown, skeletons = 3): TemplateResult {
    const { loadState, error } = this;
    const locale = this.resolvedLocale;
    const loading = loadState === 'loading';
    // Its language marked, for a German widget on an English page (WCAG 3.1.2). "Loading…" is said by
    // a region that stays from an error to its retry (a region that comes with its text may go
    // unannounced), in no part marked busy (whose changes a screen reader may hold back).
    return html`<section part="base" lang=${locale}>
      ${loadState === 'ready' ? nothing : html`<p class="visually-hidden" role="status">${loading ? sharedText(locale, 'loading') : ''}</p>`}
      ${
        loading
          ? Array.from({ length: skeletons }, () => html`<div class="skeleton"></div>`)
          : loadState === 'error'
            ? html`<div class="failed" role="alert" tabindex="-1" data-focus>
              <p>${errorText(locale, error!.code) ?? sharedText(locale, 'error.unavailable')}</p>
              ${developmentPage() && !error!.retryable ? html`<p>${error!.message}</p>` : nothing}
              ${
                error!.retryable
                  ? html`<p><button part="button" class="secondary" @click=${() => this.reload()}>${sharedText(locale, 'retry')}</button></p>`
                  : nothing
              }
            </div>`
            : ready(this.data!)
      }
    </section>`;
  }
}

const MISSING_KEY = 'The widget key is missing: set data-service-id (or key).';

/** Turns anything thrown into an ApiError; its `shown` is the line for the visitor, in their language. */
export const toApiError = (error: unknown, locale: Locale) => {
  const apiError = error instanceof ApiError ? error : new ApiError(0, 'unexpected', String(error));
  return Object.assign(apiError, { shown: errorText(locale, apiError.code, apiError.details) ?? apiError.message });
};

/**
 * What a widget hands a chunk it loads on demand (a step, a view, the video's player), with the
 * chunk's own callbacks: the element's public side (its language, data, render root, controllers
 * and events) and its calls to the service. A chunk gets nothing else of its widget.
 */
export interface ChunkHost<Data> {
  /** The widget: the chunk's controllers are its own, and the chunk draws in it and speaks its language. */
  element: ServiceElement<Data>;
  /** The widget API client for the widget's service and key as they are now. */
  api(): WidgetApi;
}

/** True in development (the tests' build); the production build replaces it with false and drops what it guards. */
declare const __DEV__: boolean;

/**
 * Defines a widget's tag unless it is already defined: two loader versions, or the npm package beside
 * the CDN loader, can meet on one page (in development, a second copy is warned about).
 */
export const define = (tag: string, element: CustomElementConstructor) => {
  const existing = customElements.get(tag);
  if (!existing) customElements.define(tag, element);
  else if (__DEV__ && existing !== element) console.warn('[service-widgets] another copy defined', tag);
};

/**
 * A widget's event for the host page: bubbling, and composed so that it leaves a host's shadow root;
 * `cancelable` where the host may stop what the widget would do next.
 */
export class ServiceEvent<Detail> extends CustomEvent<Detail> {
  constructor(name: string, detail: Detail, cancelable = false) {
    super(name, { detail, bubbles: true, composed: true, cancelable });
  }
}
