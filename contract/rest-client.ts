/**
 * A small typed client for the service's REST API, for Node and for pages of the service's own
 * origin (it needs only `fetch`; the REST API answers no CORS, and its API key must not be shipped
 * to browsers on other origins). It sends the right headers on each call, throws `ServiceApiError`
 * (status, code, fields) for every error answer, and on a 401 to a call made with a token forgets
 * that token and calls `onUnauthorized`, so the application can start the login flow again (there
 * is no refresh).
 *
 *   const api = new RestClient({ baseUrl: 'http://localhost:8787', apiKey, onUnauthorized: () => showLogin() });
 *   await api.loginByEmail('olivia.owner@acme.example');        // link + PIN by email
 *   await api.verifyPin('olivia.owner@acme.example', '123456');  // keeps the token
 *   const { courses } = await api.courses({ company: 1 });             // a company id of user().user.companies
 *
 * The service's own app (`/app/`, same origin) signs in with `session: 'cookie'`: its token is an
 * HttpOnly cookie the client never sees (`signIn()`, `signOut()`), and every change carries the
 * CSRF cookie's value in `X-CSRF-Token`.
 */

import type {
  CoursesResponse,
  RestClass,
  Role,
  TeamResponse,
  TokenResponse,
  UserResponse,
  WidgetResource,
  WidgetsResponse,
} from './api/rest.ts';
import type { WidgetKeyCheckResponse } from './api/dev.ts';
import type { WidgetType } from './index.ts';
import { APP_API_KEY, CSRF_COOKIE, CSRF_HEADER } from './api/app.ts';

// The answers' types come from the contract's schemas, which the service validates and documents
// with (type-only imports: no schema reaches the built client).
export type { Role };
export type ClassInfo = RestClass;
export type Money = ClassInfo['price'];
export type CoursesPage = CoursesResponse;
export type Course = CoursesPage['courses'][number];
export type UserInfo = UserResponse;
export type TokenAnswer = TokenResponse;
export type WidgetInfo = WidgetResource;
export type Team = TeamResponse;
export type KeyVerdict = WidgetKeyCheckResponse;
/** What a new widget is made of, and what a change of one may hold. */
export interface WidgetInput {
  type: WidgetType;
  name?: string;
  origins: string[];
  options?: Record<string, unknown>;
}
export type WidgetChange = Partial<Pick<WidgetInput, 'name' | 'origins' | 'options'>> & { enabled?: boolean };

/** Every error answer of the service: `{ error: { code, message, fields? } }` plus the status. */
export class ServiceApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  /** Seconds, for 429 `rate-limited`. */
  readonly retryAfter: number | undefined;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>, retryAfter?: number) {
    super(message);
    this.name = 'ServiceApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
  }
}

export interface RestClientOptions {
  /** The service's base URL, e.g. `http://localhost:8787`. */
  baseUrl: string;
  /** The REST API key of the application (never a widget key). */
  apiKey: string;
  /** A token kept from an earlier login. */
  token?: string;
  /** The default company for `courses()`: its id (an integer, from `user().user.companies`). */
  company?: number;
  /** Called after a 401 to a call made with a token: log in again. */
  onUnauthorized?: (error: ServiceApiError) => void;
  fetch?: typeof fetch;
  /**
   * `cookie`: the service's own app on the service's origin. The token lives in an HttpOnly cookie
   * (set by `signIn()`, ended by `signOut()`), `apiKey` defaults to the app's, and every change
   * sends the CSRF cookie's value.
   */
  session?: 'token' | 'cookie';
  /** The language of the emails the calls cause (`en`, `de`): sent as `Accept-Language`. */
  locale?: string;
}

export class RestClient {
  token: string | undefined;
  company: number | undefined;
  /** The language of the emails the calls cause (a sign-in's): `Accept-Language`. */
  locale: string | undefined;
  readonly #base: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #onUnauthorized: ((error: ServiceApiError) => void) | undefined;
  readonly #cookie: boolean;

  constructor(options: RestClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#cookie = options.session === 'cookie';
    this.#apiKey = options.apiKey || (this.#cookie ? APP_API_KEY : '');
    this.token = options.token;
    this.company = options.company;
    this.locale = options.locale;
    this.#onUnauthorized = options.onUnauthorized;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Emails the user a link (its `key` parameter is a token) and a 6-digit PIN. */
  loginByEmail(email: string): Promise<{ message: string }> {
    return this.#call('POST', '/v1/login', { body: { login: email, verification_method: 'email' } });
  }

  /** Server-to-server: the token at once. The client keeps it. */
  async loginWithClientSecret(email: string, clientSecret: string): Promise<TokenAnswer> {
    const answer = await this.#call<TokenAnswer>('POST', '/v1/login', {
      body: { login: email, verification_method: 'client_secret', client_secret: clientSecret },
    });
    this.token = answer.token;
    return answer;
  }

  /** The emailed PIN (valid 5 minutes, once) for a token. The client keeps it. */
  async verifyPin(email: string, pin: string): Promise<TokenAnswer> {
    const answer = await this.#call<TokenAnswer>('POST', '/v1/verify', {
      body: { action: 'validate_pin', email, pin },
    });
    this.token = answer.token;
    return answer;
  }

  /**
   * The service's app (`session: 'cookie'`): the emailed PIN, or the emailed link's `key`, for a
   * session cookie. The link's key works once.
   */
  signIn(proof: { email: string; pin: string } | { key: string }): Promise<{ message: string }> {
    return this.#call('POST', '/v1/session', { body: proof });
  }

  /** The service's app: ends the session's token and its cookies. */
  signOut(): Promise<{ message: string }> {
    return this.#call('DELETE', '/v1/session', {});
  }

  user(): Promise<UserInfo> {
    return this.#call('GET', '/v1/user', { token: true });
  }

  courses(options: { company?: number; page?: number; perPage?: number } = {}): Promise<CoursesPage> {
    const company = options.company ?? this.company;
    if (company === undefined) throw new TypeError('courses() needs a company: pass { company } or set client.company.');
    const query = new URLSearchParams();
    if (options.page !== undefined) query.set('page', String(options.page));
    if (options.perPage !== undefined) query.set('per_page', String(options.perPage));
    const qs = query.toString() ? `?${query.toString()}` : '';
    return this.#call('GET', `/v1/courses${qs}`, { token: true, company });
  }

  /** The company's widgets, newest first (owners and members); of one `type` if given. */
  widgets(options: { company?: number; type?: WidgetType } = {}): Promise<WidgetInfo[]> {
    const qs = options.type ? `?type=${encodeURIComponent(options.type)}` : '';
    return this.#call<WidgetsResponse>('GET', `/v1/widgets${qs}`, this.#inCompany(options, 'widgets')).then((r) => r.widgets);
  }

  widget(id: number, options: { company?: number } = {}): Promise<WidgetInfo> {
    return this.#call('GET', `/v1/widgets/${id}`, this.#inCompany(options, 'widget'));
  }

  /** A new widget with its own key (owners). */
  createWidget(input: WidgetInput, options: { company?: number } = {}): Promise<WidgetInfo> {
    return this.#call('POST', '/v1/widgets', { ...this.#inCompany(options, 'createWidget'), body: input });
  }

  /** Changes what `change` holds of a widget: its name, the whole list of origins, its options, enabled (owners). */
  updateWidget(id: number, change: WidgetChange, options: { company?: number } = {}): Promise<WidgetInfo> {
    return this.#call('PATCH', `/v1/widgets/${id}`, { ...this.#inCompany(options, 'updateWidget'), body: change });
  }

  /** A new key for the widget; the old one serves it for `graceHours` more (0 to 24, default 24) (owners). */
  rotateWidgetKey(id: number, options: { company?: number; graceHours?: number } = {}): Promise<WidgetInfo> {
    const qs = options.graceHours === undefined ? '' : `?grace_hours=${options.graceHours}`;
    return this.#call('POST', `/v1/widgets/${id}/rotate${qs}`, this.#inCompany(options, 'rotateWidgetKey'));
  }

  /**
   * What the widget API would answer a placeholder with `key` (of this company) of `type` on a page of
   * `origin`: the same checks in the same order (owners and members).
   */
  checkWidgetKey(
    check: { key: string; type?: WidgetType; origin?: string },
    options: { company?: number } = {},
  ): Promise<KeyVerdict> {
    const query = new URLSearchParams({ key: check.key });
    if (check.type) query.set('type', check.type);
    if (check.origin) query.set('origin', check.origin);
    return this.#call('GET', `/v1/widgets/check?${query.toString()}`, this.#inCompany(options, 'checkWidgetKey'));
  }

  /** Who holds which role in the company. */
  team(options: { company?: number } = {}): Promise<Team> {
    return this.#call('GET', '/v1/team', this.#inCompany(options, 'team'));
  }

  #inCompany(options: { company?: number }, call: string) {
    const company = options.company ?? this.company;
    if (company === undefined) throw new TypeError(`${call}() needs a company: pass { company } or set client.company.`);
    return { token: true, company };
  }

  async #call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { body?: unknown; token?: boolean; company?: number },
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', 'X-SERVICE-API-KEY': this.#apiKey };
    if (this.#cookie) {
      if (method !== 'GET') {
        // The contract names no DOM type (it is checked for Node too): the page's cookies, as text.
        const csrf = (globalThis as { document?: { cookie: string } }).document?.cookie
          .split('; ')
          .find((c) => c.split('=')[0]!.endsWith(CSRF_COOKIE))
          ?.split('=')[1];
        if (csrf) headers[CSRF_HEADER] = csrf;
      }
    } else if (options.token) {
      if (!this.token) {
        const error = new ServiceApiError(401, 'missing-token', 'Not logged in: call a login method first.');
        this.#onUnauthorized?.(error);
        throw error;
      }
      headers['X-SERVICE-TOKEN'] = this.token;
    }
    if (options.company !== undefined) headers['X-SERVICE-COMPANY'] = String(options.company);
    if (this.locale) headers['Accept-Language'] = this.locale;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await this.#fetch(`${this.#base}${path}`, {
        method,
        headers,
        ...(this.#cookie ? { credentials: 'same-origin' as const } : {}),
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
    } catch {
      throw new ServiceApiError(0, 'network', `The service at ${this.#base} could not be reached.`);
    }
    const text = await response.text();
    let data: unknown;
    try {
      data = text === '' ? undefined : JSON.parse(text);
    } catch {
      data = undefined;
    }
    if (response.ok) return data as T;

    const body = (data as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | undefined)?.error;
    const retryAfter = Number(response.headers.get('retry-after'));
    const error = new ServiceApiError(
      response.status,
      body?.code ?? 'http-error',
      body?.message ?? `The service answered ${response.status}.`,
      body?.fields,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
    if (response.status === 401 && (options.token || (this.#cookie && !path.startsWith('/v1/session')))) {
      this.token = undefined;
      this.#onUnauthorized?.(error);
    }
    throw error;
  }
}
