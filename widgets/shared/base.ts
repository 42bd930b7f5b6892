import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ApiError, WidgetApi } from './api.ts';
import { errorText, resolveLocale, type Locale } from './i18n.ts';
import { newId } from './ids.ts';

export type LoadState = 'loading' | 'ready' | 'error';

/**
 * What every widget shares: the public attributes the loader sets (`key`, `base-url`, `locale`), the
 * API client, the resolved locale, and the widget's data load with its three states.
 *
 * A widget implements `load()` (its one first-render request) and names in `loadArgs` the properties
 * that, changed, load again; its writes go through `_write()`. This replaces `@lit/task`, which costs
 * 1.1 KB gzip of a 14 KB budget for what these few lines do; for the same reason reactive properties
 * are declared in `static properties` rather than with decorators (0.5 KB gzip).
 */
export abstract class ServiceElement<Data = unknown> extends LitElement {
  static override properties: PropertyDeclarations = {
    key: {},
    baseUrl: { attribute: 'base-url' },
    locale: {},
    loadState: { state: true },
    data: { state: true },
    error: { state: true },
  };

  /** The public widget key (`data-service-id` on a placeholder). */
  key = '';

  /** The service's base URL; the loader sets it from its own URL. Defaults to this page's origin. */
  baseUrl = '';

  /** `en` or `de`; default: the nearest `lang` attribute, then the browser's language. */
  locale = '';

  /** Injected `fetch` (tests); the browser's own by default. */
  fetch?: typeof fetch;

  /** The state of the data load; `service-state` (not bubbling) announces each outcome to the loader. */
  loadState: LoadState = 'loading';
  protected data?: Data;
  protected error?: ApiError;
  /**
   * The error code for the loader contract, which names a fixed set (DESIGN.md): a service that failed
   * or answered nonsense is `network`; an unknown programme (`data-service-course`) `not-available`.
   */
  get errorCode() {
    const code = this.error?.code;
    return code == 'course-not-found' ? 'not-available' : this.error?.retryable || code == 'unexpected' ? 'network' : code;
  }
  get errorMessage() {
    return this.error?.message;
  }

  /** Properties whose change loads the data again. */
  protected loadArgs: PropertyKey[] = ['key', 'baseUrl'];
  #abort?: AbortController;
  /** The write in flight or last failed: the same contents keep its idempotency key. */
  #submission?: { payload: string; key: string };

  protected abstract load(signal: AbortSignal): Promise<Data>;

  /**
   * @internal A write (POST with an idempotency key): sent again with the same contents, after a
   * failure, it keeps its key, so that the service makes one record however often it is retried.
   */
  async _write<T>(path: string, body: object, token?: string): Promise<T> {
    const payload = JSON.stringify([path, body]);
    if (this.#submission?.payload !== payload) this.#submission = { payload, key: newId() };
    const answer = await this.api.request(path, { body, token, idempotencyKey: this.#submission.key });
    this.#submission = undefined;
    return answer as T;
  }

  /** Loads the words of the widget's locale, in parallel with `load()`. */
  protected abstract loadWords(locale: Locale): Promise<void>;

  /** The locale the widget speaks (`locale`, else the page's, else the browser's). */
  get resolvedLocale(): Locale {
    return resolveLocale(this.locale, this.closest('[lang]')?.getAttribute('lang'), navigator.language);
  }

  protected get api() {
    return new WidgetApi({ baseUrl: this.baseUrl || location.origin, key: this.key, fetch: this.fetch });
  }

  protected override willUpdate(changed: PropertyValues) {
    if (this.loadArgs.some((name) => changed.has(name))) this.reload();
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
    const done = (state: LoadState, data?: Data, error?: ApiError) => {
      if (abort.signal.aborted) return;
      Object.assign(this, { loadState: state, data, error });
      this.dispatchEvent(new Event('service-state'));
    };
    const words = this.loadWords(this.resolvedLocale);
    return Promise.all([this.key.trim() ? this.load(abort.signal) : Promise.reject(new ApiError(400, 'missing-key', MISSING_KEY)), words]).then(
      ([data]) => done('ready', data),
      // The message is shown in the visitor's language: wait for its words.
      (error: unknown) => words.then(() => done('error', undefined, this.toApiError(error))),
    );
  }

  /** Turns anything thrown into an ApiError whose message is the one to show. */
  protected toApiError(error: unknown) {
    const apiError = error instanceof ApiError ? error : new ApiError(0, 'unexpected', String(error));
    return Object.assign(apiError, { message: errorText(this.resolvedLocale, apiError.code, apiError.message, apiError.details) });
  }
}

const MISSING_KEY = 'The widget key is missing: set data-service-id (or key).';

/**
 * Defines a widget's tag unless it is already defined: two loader versions, or the npm package beside
 * the CDN loader, can meet on one page.
 */
export const define = (tag: string, element: CustomElementConstructor) => {
  const existing = customElements.get(tag);
  if (!existing) customElements.define(tag, element);
  else if (existing !== element) console.warn('[service-widgets] another copy defined', tag);
};
