// Reads `key` from the emailed link, removes it from the address bar, and shows whose token it is.
const result = document.querySelector('#result');
const say = (...lines) =>
  result.replaceChildren(...lines.map((line) => Object.assign(document.createElement('p'), { textContent: line })));

const url = new URL(location.href);
const token = url.searchParams.get('key');
url.searchParams.delete('key');
// `app` stays: it is no secret.
history.replaceState(null, '', url);

if (!token) {
  say('This address holds no key parameter: open the link from the login email (see /dev/outbox).');
} else {
  const seed = await fetch('/dev/seed').then(
    (r) => (r.ok ? r.json() : null),
    () => null,
  );
  // The link names its application when it is not the first one.
  const appId = url.searchParams.get('app');
  const apiKey = (appId ? seed?.applications.find((a) => String(a.application_id) === appId) : seed?.rest)?.api_key;
  if (!apiKey) {
    say(`Received a token (${token.length} characters). Call GET /v1/user with it and your API key to see whose it is.`);
  } else {
    // The package's typed REST client (built to /client/rest-client.js): the right headers, typed errors.
    const { RestClient } = await import('/client/rest-client.js');
    const api = new RestClient({ baseUrl: location.origin, apiKey, token });
    try {
      const { user } = await api.user();
      say(
        `Signed in as ${user.first_name} ${user.last_name} (${user.email}).`,
        `Companies: ${user.companies.map((c) => `${c.name} (${c.role})`).join(', ')}.`,
        'The token was removed from the address bar.',
      );
    } catch (error) {
      say(`The service refused the token: ${error.message} (${error.status} ${error.code}).`);
    }
  }
}
