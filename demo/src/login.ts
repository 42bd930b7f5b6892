/**
 * The page an emailed REST sign-in link opens (login.html): takes `key` out of the address bar,
 * asks the service whose token it is (the package's typed REST client), and hands it to the REST
 * console of this tab and of any other open tab.
 */
import { RestClient, ServiceApiError } from '../../contract/rest-client.ts';
import type { SeedDocument } from '../../contract/api/index.ts';
import { $, getJson, h } from './dom.ts';
import { saveSession } from './rest-session.ts';

const result = $('#result');
const say = (...lines: string[]) => result.replaceChildren(...lines.map((line) => h('p', {}, line)));

const url = new URL(location.href);
const token = url.searchParams.get('key');
url.searchParams.delete('key');
// `app` stays: it is no secret.
history.replaceState(null, '', url);

if (!token) {
  say('This address holds no key parameter: open the link of a login email (see the outbox).');
} else {
  const seed = await getJson<SeedDocument>('/dev/seed');
  // The link names its application when it is not the first one.
  const appId = url.searchParams.get('app');
  const apiKey = (appId ? seed?.applications.find((a) => String(a.application_id) === appId) : seed?.applications[0])?.api_key;
  if (!apiKey) {
    say(`Received a token (${token.length} characters). Call GET /v1/user with it and your API key to see whose it is.`);
  } else {
    const api = new RestClient({ baseUrl: location.origin, apiKey, token });
    try {
      const { user } = await api.user();
      saveSession({ apiKey, token, via: 'email link' }, true);
      say(
        `Signed in as ${user.first_name} ${user.last_name} (${user.email}).`,
        `Companies: ${user.companies.map((c) => `${c.name} (${c.role})`).join(', ')}.`,
        'The token was taken out of the address bar. It is kept for this tab only, where the REST console takes it.',
      );
    } catch (error) {
      const { status, code, message } = error as ServiceApiError;
      say(`The service refused the token: ${message} (${status} ${code}).`);
    }
  }
}
