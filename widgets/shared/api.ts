/** The widget API client: the one place that knows URLs, the key, retries and the error shape. */

/** An answer of the widget API that is not a success, or a service that could not be reached (`status` 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Field name → what is wrong with it and how to fix it. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The whole error object of the answer, for codes that carry more (`attempts_left`, `retry_after`). */
  details?: Record<string, unknown>;

  /** The line to show the visitor (BaseElement.toApiError): the service's message, or ours in their language. */
  shown?: string;

  /**
   * Worth trying again as it is: the service was unreachable or failing. Not a 429: a locked PIN
   * never passes, and a rate limit asks for minutes, not a quick retry.
   */
  get retryable() {
    return !this.status || this.status >= 500;
  }
}

export interface ApiOptions {
  /** The service's base URL, e.g. `https://eu.example.com/`. */
  baseUrl: string;
  /** The public widget key. */
  key: string;
  fetch?: typeof fetch;
  /** First back-off in ms before a retry; doubles each time (3 attempts in all). */
  backoff?: number;
  /**
   * The widget's language: sent with writes, so that their emails and the messages of a form's
   * faults are in it.
   */
  locale: string;
}

export class WidgetApi {
  constructor(readonly options: ApiOptions) {}

  /**
   * Calls `widget-api/v1/{path}`. The key travels in the query string and a GET carries no custom
   * header, so it needs no CORS preflight. An unreachable or failing service is tried three times;
   * a write is safe to retry because its idempotency key stays the same.
   */
  async request(
    path: string,
    {
      params = {},
      body,
      token,
      headers: extra,
      signal,
    }: {
      params?: Record<string, string | undefined>;
      /** Makes the call a POST (`{}` for one without a body). */
      body?: unknown;
      /** The participant's token: sent as a header, never in the URL. */
      token?: string;
      /** More headers (an order's token, a form's `Idempotency-Key`). */
      headers?: Record<string, string>;
      signal?: AbortSignal;
    } = {},
  ): Promise<unknown> {
    const { baseUrl, key, fetch = globalThis.fetch, backoff = 300, locale } = this.options;
    const url = new URL(`widget-api/v1/${path}`, baseUrl);
    // The key last: a first request is then the URL the loader made of FIRST_REQUEST (contract/index.ts).
    for (const [name, value] of Object.entries({ ...params, key })) if (value) url.searchParams.set(name, value);
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Accept-Language': locale, ...extra };
    if (token) headers['X-Service-Token'] = token;
    const init: RequestInit = body ? { method: 'POST', headers, body: JSON.stringify(body) } : { headers: extra };
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(body || this.options.fetch ? fetch : get, url.href, { ...init, signal, credentials: 'omit' });
      } catch (failure) {
        if (!(failure instanceof ApiError) || !failure.retryable || attempt > 2 || signal?.aborted) throw failure;
      }
      await new Promise((resolve) => setTimeout(resolve, backoff * attempt));
    }
  }
}

/**
 * The GETs in flight, by URL: widgets that ask the same at once (placeholders of one key) wait for one
 * answer. The loader's (`ServiceWidgets._first`, started with the widget's code) is for the widgets
 * that come up with it, in the task that first takes it: a later load asks again.
 */
const asked = new Map<string, Promise<Response>>();
const get = (url: string, init?: RequestInit) => {
  const first = window.ServiceWidgets?._first;
  let answer = first?.[url];
  if (answer) setTimeout(() => delete first![url]);
  else if (!(answer = asked.get(url))) {
    const done = () => asked.delete(url);
    // Stopped with the first asker's signal, it fails the others, who then ask again (a retry).
    asked.set(url, (answer = fetch(url, init)));
    answer.then(done, done);
  }
  // A caller that stopped waiting (its signal) gets no answer, as if its own request had been stopped.
  return answer.then((response) => (init?.signal?.throwIfAborted(), response.clone()));
};

const once = async (fetch: (url: string, init: RequestInit) => Promise<Response>, url: string, init: RequestInit) => {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw init.signal?.aborted ? error : new ApiError(0, 'network', 'Unreachable.');
  }
  const body = await response.json().catch(() => null);
  if (response.ok && (body || response.status === 204)) return body;
  const details = body?.error ?? {};
  const { code, message, fields } = details;
  throw Object.assign(
    new ApiError(
      response.status,
      code ?? (response.status >= 500 ? 'internal' : 'unexpected'),
      message ?? `The service answered ${response.status}.`,
      fields,
    ),
    { details },
  );
};
