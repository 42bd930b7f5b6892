/**
 * The curl examples of the README and of docs/service.md, run as they stand: a reader pastes them
 * into a shell against `npm start`, so they must work with nothing typed by hand.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../server.ts';
import { useTestService, type Json } from './helpers.ts';

const README_BASE = 'http://localhost:8787';
type Doc = 'README.md' | 'docs/service.md';

const svc = useTestService();

/** The one fenced `sh` block of a document that holds `marker`. */
function shBlock(marker: string, doc: Doc = 'docs/service.md'): string {
  const text = readFileSync(`${REPO_ROOT}${doc}`, 'utf8');
  const blocks = [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).filter((b) => b.includes(marker));
  assert.equal(blocks.length, 1, `exactly one sh block of ${doc} holds ${marker}`);
  return blocks[0]!;
}

/** Runs a block with bash against the test service; its output, one JSON answer a line. */
async function run(block: string): Promise<Json[]> {
  // Not execFileSync: the service answering the block lives in this process.
  const { stdout } = await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', block.replaceAll(README_BASE, svc.url)], {
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}` },
  }).catch((err: { code?: string; stderr?: string }) => {
    if (err.code === 'ENOENT') assert.fail('bash is missing');
    if (/curl: (command )?not found/.test(err.stderr ?? ''))
      assert.fail('curl is missing: `npm test` installs it (scripts/setup.mjs)');
    throw err;
  });
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

test("docs/service.md's REST block runs as pasted and ends with the user and the courses", async () => {
  const block = shBlock('/v1/login');
  assert.equal(block.split(README_BASE).length - 1, 1, `the block names ${README_BASE} once, as its base URL`);
  assert.doesNotMatch(block, /tok_\.\.\.|PIN=\d{6}/, 'nothing to paste by hand');

  const answers = await run(block);
  assert.match(answers[0].message, /PIN/, 'the email login');
  assert.equal(answers[1].user.email, 'olivia.owner@acme.example', 'the user, by the PIN’s token');
  assert.deepEqual(answers[2], { invalidated: 1 });
  assert.equal(answers[3].error.code, 'invalid-token', 'the invalidated token is refused');

  const [user, courses] = answers.slice(-2);
  assert.equal(answers.length, 6);
  assert.equal(user.user_valid, true);
  assert.equal(user.user.email, 'olivia.owner@acme.example');
  assert.deepEqual(courses.company, { id: 1, name: 'Acme Academy', role: 'owner' });
  assert.equal(courses.courses.length, 5);
  assert.equal(courses.pagination.per_page, 5);

  const emails = await svc.outbox('olivia.owner@acme.example');
  assert.equal(emails.length, 1, 'one email login');
  assert.equal(
    await svc.count(
      "SELECT count(*) FROM sign_in_pins WHERE audience = 'user' AND email = 'olivia.owner@acme.example' AND used_at IS NOT NULL",
    ),
    1,
    'its PIN was used',
  );
});

test("docs/service.md's login-link block sets the page the next emailed link opens", async () => {
  const [set] = await run(shBlock('/dev/login-links'));
  assert.equal(set.application_id, 201);
  const login = await svc.json('/v1/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': 'rk_demo_acme' },
    body: JSON.stringify({ login: 'max.member@acme.example', verification_method: 'email' }),
  });
  assert.equal(login.status, 200);
  const link = new URL((await svc.outbox('max.member@acme.example'))[0].link);
  assert.equal(`${link.origin}${link.pathname}`, set.login_link);
  assert.match(link.searchParams.get('key')!, /^tok_/);
});

test("the README's Try it block lets a key serve more origins, and makes a key for one", async () => {
  const block = shBlock('/dev/widget-keys', 'README.md');
  const [added, created] = await run(block);
  assert.equal(added.key, 'wk_demo_registration');
  assert.ok(added.origins.includes('https://staging.acme.example') && added.origins.includes('http://acme.localhost:*'));
  assert.ok(added.origins.includes('http://localhost:*'), 'the origins it served stay');
  assert.match(created.key, /^wk_dev_calendar_/);
  assert.deepEqual(created.origins, ['https://staging.acme.example']);

  // What the widget API now answers those pages.
  const widget = (key: string, type: string, origin: string) =>
    svc.json(`/widget-api/v1/widget?key=${key}&type=${type}`, { headers: { Origin: origin } });
  assert.equal((await widget('wk_demo_registration', 'registration', 'https://staging.acme.example')).status, 200);
  assert.equal((await widget('wk_demo_registration', 'registration', 'http://acme.localhost:3000')).status, 200);
  assert.equal((await widget(created.key, 'calendar', 'https://staging.acme.example')).status, 200);
  assert.equal((await widget(created.key, 'calendar', 'https://other.example')).status, 403);
});
