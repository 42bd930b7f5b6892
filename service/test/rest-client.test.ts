import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClient, ServiceApiError } from '../../contract/rest-client.ts';
import { startTestService, type TestService } from './helpers.ts';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(() => svc.close());

/** fetch that remembers the headers of each call. */
function recordingFetch() {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    calls.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
    return fetch(input, init);
  };
  return { calls, fetchFn };
}

test('client secret login, user and courses, each with the right headers', async () => {
  const { calls, fetchFn } = recordingFetch();
  const api = new RestClient({ baseUrl: `${svc.url}/`, apiKey: 'rk_demo_acme', company: 1, fetch: fetchFn });
  const { token } = await api.loginWithClientSecret('olivia.owner@acme.example', 'cs_demo_acme_secret');
  assert.equal(api.token, token);
  const me = await api.user();
  assert.equal(me.user.id, 101);
  const page = await api.courses({ perPage: 2, page: 2 });
  assert.deepEqual(page.pagination, { page: 2, per_page: 2, total: 6, total_pages: 3 });
  const globex = await api.courses({ company: 2 });
  assert.equal(globex.company.role, 'member');

  assert.equal(calls[0]!.headers['X-SERVICE-API-KEY'], 'rk_demo_acme');
  assert.equal(calls[0]!.headers['X-SERVICE-TOKEN'], undefined);
  assert.equal(calls[1]!.headers['X-SERVICE-TOKEN'], token);
  assert.equal(calls[1]!.headers['X-SERVICE-COMPANY'], undefined);
  assert.equal(calls[2]!.headers['X-SERVICE-COMPANY'], '1');
  assert.equal(calls[2]!.url, `${svc.url}/v1/courses?page=2&per_page=2`);
});

test('email login and verifyPin', async () => {
  const api = new RestClient({ baseUrl: svc.url, apiKey: 'rk_demo_acme' });
  await api.loginByEmail('max.member@acme.example');
  const { pin } = (await svc.outbox('max.member@acme.example'))[0];
  await api.verifyPin('max.member@acme.example', pin);
  assert.equal((await api.user()).user.id, 102);
});

test('typed errors; a 401 with a token forgets it and calls onUnauthorized', async () => {
  const unauthorized: ServiceApiError[] = [];
  const api = new RestClient({ baseUrl: svc.url, apiKey: 'rk_demo_acme', onUnauthorized: (e) => unauthorized.push(e) });

  await assert.rejects(api.verifyPin('olivia.owner@acme.example', '12'), (e: ServiceApiError) => {
    assert.ok(e instanceof ServiceApiError);
    assert.equal(e.status, 422);
    assert.equal(e.code, 'validation');
    assert.ok(e.fields?.pin);
    return true;
  });
  assert.equal(unauthorized.length, 0, 'a failed login is not an expired session');

  const { token } = await api.loginWithClientSecret('olivia.owner@acme.example', 'cs_demo_acme_secret');
  await svc.json('/dev/tokens/invalidate', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  await assert.rejects(api.user(), { status: 401, code: 'invalid-token' });
  assert.equal(unauthorized.length, 1);
  assert.equal(api.token, undefined);
  await assert.rejects(api.courses({ company: 1 }), { status: 401, code: 'missing-token' });
  assert.equal(unauthorized.length, 2);

  const widgetKey = new RestClient({ baseUrl: svc.url, apiKey: 'wk_demo_registration' });
  await assert.rejects(widgetKey.loginByEmail('olivia.owner@acme.example'), { status: 401, code: 'invalid-api-key' });
  const down = new RestClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'x' });
  await assert.rejects(down.loginByEmail('a@example.org'), { status: 0, code: 'network' });
});

test('widgets: an owner creates, changes and rotates one and reads the team; a member is told why not', async () => {
  const owner = new RestClient({ baseUrl: svc.url, apiKey: 'rk_demo_acme', company: 1 });
  await owner.loginWithClientSecret('olivia.owner@acme.example', 'cs_demo_acme_secret');
  const made = await owner.createWidget({ type: 'calendar', name: 'Calendar', origins: ['https://www.acme.example'] });
  assert.equal(made.loader, 'v2');
  assert.deepEqual(await owner.widget(made.id), made);
  assert.ok((await owner.widgets({ type: 'calendar' })).some((w) => w.id === made.id));
  const changed = await owner.updateWidget(made.id, { enabled: false, name: 'Calendar, paused' });
  assert.deepEqual([changed.enabled, changed.name], [false, 'Calendar, paused']);
  const rotated = await owner.rotateWidgetKey(made.id);
  assert.deepEqual(
    rotated.previous_keys.map((k) => k.key),
    [made.key],
  );
  assert.equal((await owner.team()).team[0]!.role, 'owner');

  const member = new RestClient({ baseUrl: svc.url, apiKey: 'rk_demo_acme', company: 1 });
  await member.loginWithClientSecret('max.member@acme.example', 'cs_demo_acme_secret');
  await assert.rejects(member.updateWidget(made.id, { enabled: true }), (e: ServiceApiError) => {
    assert.deepEqual([e.status, e.code], [403, 'role-not-allowed']);
    return true;
  });
  assert.throws(() => new RestClient({ baseUrl: svc.url, apiKey: 'rk_demo_acme' }).widgets(), /needs a company/);
});
