/**
 * The REST console (console.html): the specification's flow through the package's typed REST
 * client, whose every request and answer is shown as it went over the wire (a recording `fetch`).
 * A 401 to a call made with the token ends the sign-in and sends the visitor back to step 2, as
 * the client's `onUnauthorized` asks an application to do.
 */
import { RestClient, ServiceApiError, type UserInfo } from '../../contract/rest-client.ts';
import type { OutboxResponse, SeedDocument } from '../../contract/api/index.ts';
import { $, $$, copy, getJson, h, safeLink } from './dom.ts';
import { clearSession, loadSession, onSession, saveSession, type RestSession } from './rest-session.ts';

type Step = 'login' | 'user' | 'courses';

const seed = await getJson<SeedDocument>('/dev/seed');
const apps = seed?.applications ?? [];
const app = () => apps.find((a) => String(a.application_id) === $<HTMLSelectElement>('#app').value);
let session: RestSession | undefined;
let user: UserInfo | undefined;

// --- Each request and its answer -------------------------------------------------------------

const json = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** A `fetch` that shows each exchange in a step's list, the newest open, the older ones folded. */
const recorder =
  (step: Step): typeof fetch =>
  async (input, init = {}) => {
    const url = new URL(String(input), location.href);
    const method = init.method ?? 'GET';
    const headers = Object.entries((init.headers ?? {}) as Record<string, string>);
    const body = typeof init.body === 'string' ? init.body : '';
    const started = performance.now();
    let answer: string;
    let status: Node;
    let response: Response | undefined;
    try {
      response = await fetch(input, init);
      const text = await response.clone().text();
      answer = [
        `HTTP/1.1 ${response.status} ${response.statusText}`,
        // Connection management is the browser's: not the API's answer.
        ...[...response.headers]
          .filter(([name]) => !/^(connection|keep-alive)$/.test(name))
          .map(([name, value]) => `${name}: ${value}`),
        '',
        json(text),
      ].join('\n');
      status = h('span', { class: `http-status ${response.ok ? 'ok' : 'bad'}` }, `${response.status} ${response.statusText}`);
    } catch {
      answer = 'No answer: the service could not be reached.';
      status = h('span', { class: 'http-status bad' }, 'no answer');
    }
    const request = [
      `${method} ${url.pathname}${url.search} HTTP/1.1`,
      `Host: ${url.host}`,
      ...headers.map(([name, value]) => `${name}: ${value}`),
      ...(body ? ['', json(body)] : []),
    ].join('\n');
    const curl = [
      `curl -s -w '\\n' ${shellQuote(url.href)}`,
      ...(method === 'GET' ? [] : [`-X ${method}`]),
      ...headers.filter(([name]) => name !== 'Accept').map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`),
      ...(body ? [`-d ${shellQuote(body)}`] : []),
    ].join(' \\\n  ');

    const list = $(`[data-exchanges="${step}"]`);
    for (const older of $$<HTMLDetailsElement>('details', list)) older.open = false;
    const copied = h('span', { class: 'copied', role: 'status' });
    const copyButton = h('button', { type: 'button', class: 'small secondary' }, 'Copy as curl');
    copyButton.addEventListener('click', () => void copy(curl, copied));
    list.prepend(
      h(
        'details',
        { class: 'exchange', open: true },
        h(
          'summary',
          {},
          h('code', {}, `${method} ${url.pathname}${url.search}`),
          status,
          h('span', { class: 'elapsed' }, `${Math.round(performance.now() - started)} ms`),
        ),
        h(
          'div',
          { class: 'exchange-body' },
          h('div', {}, h('h3', {}, 'Request'), h('pre', { class: 'code', tabindex: '0' }, request)),
          h('div', {}, h('h3', {}, 'Answer'), h('pre', { class: 'code', tabindex: '0' }, answer)),
          h('p', { class: 'snippet-actions' }, copyButton, copied),
        ),
      ),
    );
    if (!response) throw new TypeError('Failed to fetch');
    return response;
  };

/** The typed client for a step's calls, with this tab's token. */
const client = (step: Step) =>
  new RestClient({
    baseUrl: location.origin,
    apiKey: session?.apiKey ?? app()?.api_key ?? '',
    ...(session ? { token: session.token } : {}),
    fetch: recorder(step),
    onUnauthorized: (error) => signOut(`The service answered 401 (${error.code}): ${error.message} Log in again.`),
  });

// --- What the page shows ---------------------------------------------------------------------

const showError = (step: Step, error?: unknown) => {
  const line = $(`[data-error="${step}"]`);
  line.hidden = !error;
  if (!error) return;
  const { status, code, message } = error as ServiceApiError;
  line.textContent = status ? `${status} ${code}: ${message}` : String(message);
};

const signedInControls = (on: boolean) => {
  for (const id of ['#get-user', '#invalidate', '#forget']) $<HTMLButtonElement>(id).disabled = !on;
  $<HTMLButtonElement>('#get-courses').disabled = !on || !user;
};

function signIn(next: RestSession, { announce = true } = {}) {
  session = next;
  saveSession(next);
  showError('login');
  const done = $('#login-done');
  done.hidden = false;
  done.textContent = `Logged in by ${next.via}. The token is kept for this tab only (sessionStorage), and sent as X-SERVICE-TOKEN.`;
  $('#email-step').hidden = true;
  signedInControls(true);
  if (announce) $('#user-title').focus();
  void getUser();
}

function signOut(why?: string) {
  session = undefined;
  user = undefined;
  clearSession();
  $('#login-done').hidden = true;
  $('#companies').hidden = true;
  $('#user-state').textContent = 'Log in first: the token goes into X-SERVICE-TOKEN.';
  signedInControls(false);
  if (why) {
    const line = $('[data-error="login"]');
    line.hidden = false;
    line.textContent = why;
    $('#login-title').focus();
  }
}

async function getUser() {
  showError('user');
  try {
    user = await client('user').user();
  } catch (error) {
    if ((error as ServiceApiError).status !== 401) showError('user', error);
    return;
  }
  const { first_name, last_name, email, companies } = user.user;
  $('#user-state').textContent =
    `${first_name} ${last_name} (${email}), a user of ${companies.length} ${companies.length === 1 ? 'company' : 'companies'}.`;
  const preferred = companies.find((c) => c.id === app()?.company_id) ?? companies[0];
  $('#companies .choices').replaceChildren(
    ...companies.map((company) =>
      h(
        'label',
        { class: 'choice' },
        h('input', { type: 'radio', name: 'company', value: String(company.id), checked: company === preferred }),
        h('span', {}, h('strong', {}, company.name), ` (id ${company.id})`),
        h('span', { class: 'hint' }, `Role: ${company.role}`),
      ),
    ),
  );
  $('#companies').hidden = companies.length === 0;
  signedInControls(true);
}

// --- Step 1: the application ------------------------------------------------------------------

$('#app').replaceChildren(...apps.map((a) => h('option', { value: String(a.application_id) }, `${a.name} (${a.api_key})`)));
if (!seed) {
  showError(
    'login',
    new Error('The seeded applications come from /dev/seed, which the service offers in development mode only.'),
  );
}
$('#users').replaceChildren(
  ...(seed?.users ?? []).map((u) => h('option', { value: u.email }, `${u.first_name} ${u.last_name}, ${u.role}`)),
);
const fillSecret = () => {
  $<HTMLInputElement>('#secret').value = app()?.client_secret ?? '';
};
$('#app').addEventListener('change', () => {
  fillSecret();
  if (session && session.apiKey !== app()?.api_key) signOut();
});
fillSecret();
const firstUser = seed?.users[0]?.email ?? '';
$<HTMLInputElement>('#email').value = firstUser;
$<HTMLInputElement>('#secret-email').value = firstUser;

// --- Step 2: log in ---------------------------------------------------------------------------

const method = () => $<HTMLInputElement>('input[name="method"]:checked').value;
/** The form of the way to log in that is chosen. */
const showMethod = () => {
  $('#email-form').hidden = method() !== 'email';
  $('#email-step').hidden = method() !== 'email' || !$('#email-view').childElementCount;
  $('#secret-form').hidden = method() !== 'secret';
};
for (const radio of $$('input[name="method"]')) radio.addEventListener('change', showMethod);
// Chosen before this script got here (it waits for the applications above), or kept by the browser
// on a return to the page: the form follows (a choice made early showed the email form, and stayed).
showMethod();

const outbox = async (to: string) => (await getJson<OutboxResponse>(`/dev/outbox?to=${encodeURIComponent(to)}`))?.emails ?? [];

$('#email-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const email = $<HTMLInputElement>('#email').value.trim();
  showError('login');
  const before = (await outbox(email))[0]?.id ?? 0;
  try {
    await client('login').loginByEmail(email);
  } catch (error) {
    return showError('login', error);
  }
  const sent = (await outbox(email)).find((e) => e.id > before);
  const view = $('#email-view');
  view.replaceChildren(
    sent
      ? h(
          'article',
          { class: 'email-card', 'aria-labelledby': 'email-subject' },
          h('h4', { id: 'email-subject' }, sent.subject),
          h('p', { class: 'email-meta' }, `To ${sent.to} · from the outbox`),
          h('p', { class: 'email-text' }, sent.text),
          sent.link &&
            h('p', {}, safeLink(sent.link, 'Open the sign-in link'), ' (completes the login on the page the application names)'),
          sent.pin && h('p', {}, 'Or type the PIN: ', h('span', { class: 'pin' }, sent.pin)),
        )
      : h(
          'p',
          { class: 'note' },
          `No email arrived for ${email}: the service writes one only to a user it knows, and answers the same either way, so that nobody learns who has an account.`,
        ),
  );
  $('#email-step').hidden = false;
  $('#pin-form').hidden = !sent?.pin;
  $('#email-title').focus();
});

$('#pin-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  showError('login');
  const api = client('login');
  try {
    const { token } = await api.verifyPin($<HTMLInputElement>('#email').value.trim(), $<HTMLInputElement>('#pin').value.trim());
    signIn({ apiKey: app()!.api_key, token, via: 'PIN' });
  } catch (error) {
    showError('login', error);
  }
});

$('#secret-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  showError('login');
  try {
    const { token } = await client('login').loginWithClientSecret(
      $<HTMLInputElement>('#secret-email').value.trim(),
      $<HTMLInputElement>('#secret').value.trim(),
    );
    signIn({ apiKey: app()!.api_key, token, via: 'client secret' });
  } catch (error) {
    showError('login', error);
  }
});

// --- Steps 3 and 4 ----------------------------------------------------------------------------

$('#get-user').addEventListener('click', () => void getUser());
$('#forget').addEventListener('click', () => {
  signOut();
  $('#login-title').focus();
});
$('#invalidate').addEventListener('click', async () => {
  if (!session) return;
  // A development endpoint (not the REST API): the service may invalidate any token at any time.
  await recorder('user')('/dev/tokens/invalidate', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: session.token }),
  });
  $('#user-state').textContent = 'The service has invalidated the token: the next call with it answers 401.';
});

$('#courses-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  showError('courses');
  const company = Number($<HTMLInputElement>('input[name="company"]:checked').value);
  try {
    const { company: info, pagination } = await client('courses').courses({
      company,
      page: Number($<HTMLInputElement>('#page').value) || 1,
      perPage: Number($<HTMLInputElement>('#per-page').value) || 20,
    });
    const first = (pagination.page - 1) * pagination.per_page + 1;
    const last = Math.min(pagination.total, pagination.page * pagination.per_page);
    $('#courses-summary').textContent =
      pagination.total === 0
        ? `${info.name} (${info.role}): no courses.`
        : `${info.name} (${info.role}): courses ${first}–${last} of ${pagination.total}, page ${pagination.page} of ${pagination.total_pages}.`;
  } catch (error) {
    $('#courses-summary').textContent = '';
    if ((error as ServiceApiError).status !== 401) showError('courses', error);
  }
});

// A login completed by the emailed link, in this tab or another.
const kept = loadSession();
if (kept) {
  const own = apps.find((a) => a.api_key === kept.apiKey);
  if (own) $<HTMLSelectElement>('#app').value = String(own.application_id);
  signIn(kept, { announce: false });
}
onSession((next) => signIn(next));
