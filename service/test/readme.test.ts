/**
 * The README's curl walk-through of the REST API, run as it stands: a reader pastes it into a shell
 * against `npm start`, so it must work with nothing typed by hand.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../server.ts';
import { startTestService, type Json, type TestService } from './helpers.ts';

const README_BASE = 'http://localhost:8787';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(() => svc.close());

/** The one fenced `sh` block of the README that calls the REST API. */
function restBlock(): string {
  const readme = readFileSync(`${REPO_ROOT}README.md`, 'utf8');
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).filter((b) => b.includes('/v1/login'));
  assert.equal(blocks.length, 1, 'exactly one sh block of the README calls /v1/login');
  return blocks[0]!;
}

test("the README's REST block runs as pasted and ends with the user and the courses", async () => {
  const block = restBlock();
  assert.equal(block.split(README_BASE).length - 1, 1, `the block names ${README_BASE} once, as its base URL`);
  assert.doesNotMatch(block, /tok_\.\.\.|PIN=\d{6}/, 'nothing to paste by hand');

  // Not execFileSync: the service answering the block lives in this process.
  const { stdout } = await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', block.replaceAll(README_BASE, svc.url)], {
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}` },
  }).catch((err: { code?: string; stderr?: string; message: string }) => {
    if (err.code === 'ENOENT') assert.fail('bash is missing');
    if (/curl: (command )?not found/.test(err.stderr ?? '')) assert.fail('curl is missing: `npm test` installs it (scripts/setup.mjs)');
    throw err;
  });

  const answers: Json[] = stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.match(answers[0].message, /PIN/, 'the email login');
  assert.equal(answers[1].user.email, 'olivia.owner@acme.example', 'the user, by the PIN’s token');
  assert.deepEqual(answers[2], { invalidated: 1 });
  assert.equal(answers[3].error.code, 'invalid-token', 'the invalidated token is refused');

  const [user, courses] = answers.slice(-2);
  assert.equal(answers.length, 6);
  assert.equal(user.user_valid, true);
  assert.equal(user.user.email, 'olivia.owner@acme.example');
  assert.deepEqual(courses.company, { id: 'c_acme', name: 'Acme Academy', role: 'owner' });
  assert.equal(courses.courses.length, 5);
  assert.equal(courses.pagination.per_page, 5);

  const emails = (await svc.json('/dev/outbox?to=olivia.owner@acme.example')).body.emails;
  assert.equal(emails.length, 1, 'one email login');
  assert.equal(svc.count("SELECT count(*) FROM pins WHERE email = 'olivia.owner@acme.example' AND used_at IS NOT NULL"), 1, 'its PIN was used');
});
