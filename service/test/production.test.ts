/**
 * Production as an operator meets it: the settings it needs (each missing one named), a start that
 * holds nothing of the demo, and the support tool's company, owner and keys working end to end over
 * real HTTP, with the confirmation email received by a real SMTP server.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ConfigError, readConfig } from '../config.ts';
import { stopsWithParent } from '../run.ts';
import { REPO_ROOT, startService } from '../server.ts';
import {
  openTestCompany,
  registrationBody,
  runSupport,
  startTestService,
  uniqueKey,
  writeHeaders,
  type Json,
} from './helpers.ts';
import { recipient, startSmtp } from './smtp.ts';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-production-'));
  folders.push(dir);
  return dir;
};
after(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const SETTINGS = {
  PUBLIC_URL: 'https://booking.example.com',
  SMTP_URL: 'smtps://mailer:password@mail.example.com:465',
  SMTP_FROM: 'bookings@example.com',
  DATA_DIR: '/var/lib/booking',
};
const problems = (env: NodeJS.ProcessEnv, opts: Parameters<typeof readConfig>[1] = {}) => {
  try {
    readConfig(env, opts);
    return [];
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.problems;
  }
};

/** A program of this repository run as an operator would, with only these settings. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the settings', () => {
  test('production needs an https PUBLIC_URL, a mail server and a store: every missing one is named with how to set it', () => {
    const missing = problems({});
    assert.equal(missing.length, 3, missing.join('\n'));
    assert.match(missing[0]!, /^PUBLIC_URL is missing: the https:\/\/ address people reach the service at/);
    assert.match(missing[1]!, /^SMTP_URL and SMTP_FROM are missing/);
    assert.match(missing[2]!, /^DATA_DIR or DATABASE_URL is missing: the folder of the SQLite store/);
    assert.deepEqual(problems(SETTINGS), []);
    assert.match(
      problems({ ...SETTINGS, PUBLIC_URL: 'http://booking.example.com' })[0]!,
      /PUBLIC_URL must be an https:\/\/ address in production/,
    );
    assert.match(problems({ ...SETTINGS, SMTP_FROM: undefined })[0]!, /SMTP_FROM is missing/);
    assert.match(problems({ ...SETTINGS, SMTP_URL: 'mail.example.com' })[0]!, /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    // An SMTP_URL that is no URL is named, and its password never shown.
    for (const url of ['smtp://user:S3cretPw@host:notaport', 'smtp://user:S3cretPw@[bad']) {
      const said = problems({ ...SETTINGS, SMTP_URL: url });
      assert.match(said[0]!, /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
      assert.ok(!said.join(' ').includes('S3cretPw'));
    }
    assert.deepEqual(
      problems({ ...SETTINGS, PUBLIC_URL: 'https://x.example/?a=1' }).length,
      1,
      'a wrong PUBLIC_URL is not also a missing one',
    );
    assert.match(problems({ ...SETTINGS, TRUST_PROXY: '10.0.0.1, proxy' })[0]!, /TRUST_PROXY .* "proxy" is none/);
    assert.deepEqual(problems({ ...SETTINGS, TRUST_PROXY: '10.0.0.0/8, fd00::/8, 192.0.2.1' }), []);
    assert.match(problems({ ...SETTINGS, TRUST_PROXY: '10.0.0.0/33' })[0]!, /"10\.0\.0\.0\/33" is none/);
    assert.match(
      problems({ ...SETTINGS, DATABASE_URL: 'mysql://db/booking' })[0]!,
      /DATABASE_URL must be a PostgreSQL URL such as postgres:\/\//,
    );
    assert.deepEqual(problems({ ...SETTINGS, DATA_DIR: undefined, DATABASE_URL: 'postgres://db/booking' }), []);
  });

  test('development is opt-in, and only on this machine: a flag or SERVICE_MODE; an address of another machine means production', () => {
    assert.equal(readConfig(SETTINGS).mode, 'production', 'no setting: production');
    assert.equal(readConfig({}, { development: true }).mode, 'development', 'npm start’s flag');
    assert.equal(readConfig({ PUBLIC_URL: 'http://localhost:8787' }, { development: true }).mode, 'development');
    // The README's old staging advice: a public address with `npm start` is production now.
    const staging = problems({ PUBLIC_URL: 'https://staging.acme.example' }, { development: true });
    assert.match(staging.at(-1)!, /is not this machine, so the service runs in production\. .* set SERVICE_MODE=development/);
    assert.equal(readConfig({ ...SETTINGS }, { development: true }).mode, 'production');
    assert.equal(readConfig({ SERVICE_MODE: 'development', PUBLIC_URL: 'https://staging.acme.example' }).mode, 'development');
    assert.equal(readConfig({ NODE_ENV: 'production', ...SETTINGS }, { development: true }).mode, 'production');
    assert.match(problems({ SERVICE_MODE: 'staging' })[0]!, /SERVICE_MODE must be "development" or "production"/);
    assert.equal(readConfig(SETTINGS).logFormat, 'json');
    assert.equal(readConfig({}, { development: true }).logFormat, 'text');
  });

  test('a HOST that is no address of this machine is said, not thrown', async () => {
    const dataDir = folder();
    const { code, stderr } = await run(['service/main.ts', '--development'], {
      PORT: '0',
      HOST: '192.0.2.77',
      DATA_DIR: dataDir,
    });
    assert.equal(code, 1);
    assert.match(stderr, /^HOST 192\.0\.2\.77 is no address of this machine: use 127\.0\.0\.1/);
  });

  test('production with both stores set is refused, saying which to unset', () => {
    assert.throws(
      () =>
        readConfig({
          NODE_ENV: 'production',
          PUBLIC_URL: 'https://booking.example.com',
          SMTP_URL: 'smtps://u:p@mail.example.com:465',
          SMTP_FROM: 'bookings@example.com',
          DATA_DIR: '/var/lib/booking',
          DATABASE_URL: 'postgres://booking:pw@db.example.com:5432/booking',
        }),
      (err: unknown) =>
        err instanceof ConfigError &&
        /DATA_DIR and DATABASE_URL are both set.*unset DATA_DIR to keep it in PostgreSQL/.test(err.message),
    );
  });

  test('a service started by itself keeps running when the script that started it ends; one npm started stops with npm', () => {
    // (A deploy script's `node … service/main.ts &` stopped a second after the script had ended.)
    assert.equal(stopsWithParent({}), false);
    assert.equal(stopsWithParent({ NODE_ENV: 'production' }), false);
    assert.equal(stopsWithParent({ npm_lifecycle_event: 'start' }), true);
    assert.equal(stopsWithParent({ npm_lifecycle_event: 'serve' }), true);
  });

  test('the program refuses to start without them, and says so', async () => {
    const { code, stdout, stderr } = await run(['service/main.ts'], { PORT: '0' });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /^The service cannot start:\n {2}- PUBLIC_URL is missing/);
    assert.match(stderr, /- SMTP_URL and SMTP_FROM are missing/);
    assert.match(stderr, /- DATA_DIR or DATABASE_URL is missing/);
  });
});

describe('a company opened by support', () => {
  test('works end to end: the printed REST credentials, a catalogue, a widget key on its origin, and a confirmation email through SMTP', async () => {
    const smtp = await startSmtp();
    const dataDir = folder();
    const service = await startService({
      port: 0,
      dataDir,
      dev: false,
      quiet: true,
      publicUrl: 'https://booking.example.com',
      smtp: { url: smtp.url, from: 'bookings@example.com' },
    });
    const support = async (...argv: string[]) => run(['service/support/cli.ts', ...argv], { DATA_DIR: dataDir });
    const json = async (...argv: string[]) => {
      const res = await support(...argv, '--json');
      assert.equal(res.code, 0, res.stderr);
      return JSON.parse(res.stdout);
    };
    try {
      const company = await json(
        'company',
        'create',
        '--name',
        'Acme Training',
        '--owner-email',
        'Olivia@Acme.example',
        '--owner-first-name',
        'Olivia',
        '--owner-last-name',
        'Owner',
      );
      assert.deepEqual(Object.keys(company).sort(), [
        'api_key',
        'application_id',
        'client_secret',
        'company_id',
        'owner_user_id',
        'public_id',
      ]);
      // Printed once: the store keeps only their hashes.
      const stored = ['', '-wal']
        .map((suffix) => join(dataDir, `service.sqlite${suffix}`))
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file).toString('latin1'))
        .join('');
      assert.ok(
        !stored.includes(company.api_key) && !stored.includes(company.client_secret),
        'no plain key or secret in the store',
      );

      // The REST API, with the printed credentials.
      const rest = (path: string, init: { body?: unknown; token?: string } = {}) =>
        fetch(`${service.url}${path}`, {
          method: init.body === undefined ? 'GET' : 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-SERVICE-API-KEY': company.api_key,
            ...(init.token ? { 'X-SERVICE-TOKEN': init.token, 'X-SERVICE-COMPANY': String(company.company_id) } : {}),
          },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as Json }));
      const bySecret = await rest('/v1/login', {
        body: { login: 'olivia@acme.example', verification_method: 'client_secret', client_secret: company.client_secret },
      });
      assert.equal(bySecret.status, 200, JSON.stringify(bySecret.body));
      const user = await rest('/v1/user', { token: bySecret.body.token });
      assert.equal(user.body.user.id, company.owner_user_id);
      assert.deepEqual(
        user.body.user.companies.map((c: { id: number; role?: string }) => c.id),
        [company.company_id],
      );
      // By email: a PIN only (the company has no sign-in page yet), received by the SMTP server.
      assert.equal(
        (await rest('/v1/login', { body: { login: 'olivia@acme.example', verification_method: 'email' } })).status,
        200,
      );
      await service.jobs.idle(); // the login's email is queued after the answer
      await service.mail.run();
      const pinMail = await smtp.next();
      await service.mail.run(); // a round already under way when the email came is finished too
      assert.equal(recipient(pinMail), 'olivia@acme.example');
      const pin = /\b(\d{6})\b/.exec(pinMail.text ?? '')?.[1];
      assert.ok(pin, pinMail.text);
      assert.ok(!/https?:\/\//.test(pinMail.text ?? ''), 'no link to a sign-in page that does not exist');
      assert.equal(pinMail.from?.value[0]?.name, 'Acme Training', 'from the company, not its application');
      // Sent, the store keeps no PIN: not in its field, not in its text (a backup would carry it).
      const db = new Database(join(dataDir, 'service.sqlite'), { readonly: true });
      const kept = db.prepare("SELECT pin, link, text, html FROM outbox WHERE to_addr = 'olivia@acme.example'").all() as Json[];
      db.close();
      assert.equal(kept.length, 1);
      assert.equal(kept[0].pin, null);
      assert.ok(!kept[0].text.includes(pin!) && !kept[0].html.includes(pin!), 'the PIN is gone from the stored text');
      const byPin = await rest('/v1/verify', { body: { action: 'validate_pin', email: 'olivia@acme.example', pin } });
      assert.equal(byPin.status, 200, JSON.stringify(byPin.body));

      // A catalogue: refused with each fault named, then imported.
      const bad = join(dataDir, 'bad.json');
      writeFileSync(
        bad,
        JSON.stringify({ programmes: [{ title: 'No summary', category: 'Safety', classes: [{ starts_at: 'soon' }] }] }),
      );
      const refused = await support('catalogue', 'import', '--company', String(company.company_id), bad);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /Refused: programmes\.0\.summary: /);
      assert.match(
        refused.stderr,
        /Refused: programmes\.0\.classes\.0\.starts_at: starts_at must be a time with its offset, such as 2027-03-01T09:00:00Z/,
      );
      const starts = new Date(Date.now() + 14 * 86400_000);
      const good = join(dataDir, 'catalogue.json');
      writeFileSync(
        good,
        JSON.stringify({
          programmes: [
            {
              title: 'First aid at work',
              summary: 'A day of first aid.',
              category: 'Safety',
              classes: [
                {
                  starts_at: starts.toISOString(),
                  ends_at: new Date(starts.getTime() + 8 * 3600_000).toISOString(),
                  timezone: 'Europe/Berlin',
                  location: 'Berlin',
                  price: { amount: 0, currency: 'EUR' },
                  capacity: 10,
                  lecturers: [{ email: 'lena@acme.example', first_name: 'Lena', last_name: 'Lecturer' }],
                },
              ],
            },
          ],
        }),
      );
      const imported = await json('catalogue', 'import', '--company', String(company.company_id), good);
      assert.equal(imported.imported.classes, 1);
      const courses = await rest('/v1/courses', { token: byPin.body.token });
      assert.equal(courses.status, 200, JSON.stringify(courses.body));
      assert.deepEqual(JSON.stringify(courses.body).match(/First aid at work/g)?.length, 1);
      const exported = await json('catalogue', 'export', '--company', String(company.company_id), join(dataDir, 'export.json'));
      const classId = JSON.parse(readFileSync(exported.file, 'utf8')).programmes[0].classes[0].id;

      // A widget key: https origins only in production.
      const local = await support(
        'widget-key',
        'create',
        '--company',
        String(company.company_id),
        '--type',
        'registration',
        '--origin',
        'http://localhost:3000',
      );
      assert.equal(local.code, 1);
      assert.match(local.stderr, /widgets show on secure pages only: https:\/\/localhost:3000/);
      const { key } = await json(
        'widget-key',
        'create',
        '--company',
        String(company.company_id),
        '--type',
        'registration',
        '--origin',
        'https://www.acme.example',
      );
      const widget = (origin: string) =>
        fetch(`${service.url}/widget-api/v1/widget?key=${key}&type=registration`, { headers: { Origin: origin } }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as Json }),
        );
      const shown = await widget('https://www.acme.example');
      assert.equal(shown.status, 200);
      assert.match(JSON.stringify(shown.body), /First aid at work/);
      assert.equal((await widget('http://localhost:5173')).body.error.code, 'origin-not-allowed');

      // A visitor registers on that page; the confirmation reaches the SMTP server, from the company.
      const registered = await fetch(`${service.url}/widget-api/v1/registrations?key=${key}`, {
        method: 'POST',
        headers: writeHeaders(uniqueKey(), 'https://www.acme.example'),
        body: JSON.stringify(registrationBody({ class_id: classId, email: 'ada@example.org' })),
      });
      assert.equal(registered.status, 201, await registered.clone().text());
      await service.mail.run();
      const confirmation = await smtp.next();
      assert.equal(recipient(confirmation), 'ada@example.org');
      assert.deepEqual(confirmation.from?.value, [{ address: 'bookings@example.com', name: 'Acme Training' }]);
      assert.equal(confirmation.subject, 'Registration confirmed: First aid at work');

      // Support turns the key off, and ends the owner's sign-ins.
      await json('widget-key', 'disable', '--key', key);
      assert.equal((await widget('https://www.acme.example')).body.error.code, 'not-available');
      await json('widget-key', 'enable', '--key', key);
      assert.equal((await widget('https://www.acme.example')).status, 200, 'on again');
      await json('widget-key', 'disable', '--key', key);
      const ended = await json('tokens', 'invalidate', '--email', 'olivia@acme.example');
      assert.ok(ended.invalidated >= 2, JSON.stringify(ended));
      assert.equal((await rest('/v1/user', { token: byPin.body.token })).status, 401);
      assert.equal((await rest('/v1/user', { token: bySecret.body.token })).status, 401);

      const listed = await support('company', 'list');
      assert.match(listed.stdout, /Acme Training/);
      const unknown = await support('company', 'delete');
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /There is no command "company delete"/);
    } finally {
      await service.close();
      await smtp.close();
    }
  });
});

describe('the service’s app in production', () => {
  test('support’s new owner signs in to /app/ with the PIN received by SMTP, into a Secure __Host- session, and publishes a widget', async () => {
    const smtp = await startSmtp();
    const service = await startTestService({
      dev: false,
      publicUrl: 'https://booking.example.com',
      smtp: { url: smtp.url, from: 'bookings@example.com' },
    });
    const app = (path: string, init: { body?: unknown; cookie?: string; csrf?: string; company?: number } = {}) =>
      service.json(path, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-SERVICE-API-KEY': 'service-app',
          ...(init.cookie ? { Cookie: init.cookie } : {}),
          ...(init.csrf ? { 'X-CSRF-Token': init.csrf } : {}),
          ...(init.company ? { 'X-SERVICE-COMPANY': String(init.company) } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    try {
      const company = await openTestCompany(service, { types: [] });
      const owner = company.owner_email;
      assert.equal((await app('/v1/login', { body: { login: owner, verification_method: 'email' } })).status, 200);
      await service.jobs.idle();
      await service.runMail();
      const mail = await smtp.next();
      assert.equal(recipient(mail), owner);
      // The app's own link, at the public address; and the PIN.
      assert.match(mail.text ?? '', /https:\/\/booking\.example\.com\/app\/\?key=tok_/);
      const pin = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1];
      const signedIn = await app('/v1/session', { body: { email: owner, pin } });
      assert.equal(signedIn.status, 200);
      const lines = signedIn.headers.getSetCookie();
      assert.match(
        lines[0]!,
        /^__Host-service_app_session=tok_[^;]+; Path=\/; Max-Age=604800; SameSite=Strict; HttpOnly; Secure$/,
      );
      assert.match(lines[1]!, /^__Host-service_app_csrf=[0-9a-f]{64}; Path=\/; Max-Age=604800; SameSite=Strict; Secure$/);
      const cookie = lines.map((line) => line.split(';')[0]).join('; ');
      const csrf = /__Host-service_app_csrf=([0-9a-f]+)/.exec(cookie)![1]!;
      // An http cookie name of development is no session here.
      assert.equal((await app('/v1/user', { cookie: cookie.replace(/__Host-/g, '') })).status, 401);

      const user = await app('/v1/user', { cookie });
      assert.deepEqual(user.body.user.companies, [{ id: company.company_id, name: 'Acme Training', role: 'owner' }]);
      const create = (origin: string) =>
        app('/v1/widgets', { cookie, csrf, company: company.company_id, body: { type: 'calendar', origins: [origin] } });
      // Without the CSRF header, refused, naming the cookie as this service calls it.
      const forged = await app('/v1/widgets', {
        cookie,
        company: company.company_id,
        body: { type: 'calendar', origins: ['https://x.example'] },
      });
      assert.equal(forged.status, 403);
      assert.match(forged.body.error.message, /the value of its __Host-service_app_csrf cookie/);
      const local = await create('http://localhost:3000');
      assert.equal(local.status, 422);
      assert.match(local.body.error.fields.origins, /secure pages only: https:\/\/localhost:3000/);
      const made = await create('https://www.acme.example');
      assert.equal(made.status, 201);
      const shown = (origin: string) =>
        service.fetch(`/widget-api/v1/widget?key=${made.body.key}&type=calendar`, { headers: { Origin: origin } });
      assert.equal((await shown('https://www.acme.example')).status, 200);
      // The app's own pages, at the public address, preview every key.
      assert.equal((await shown('https://booking.example.com')).status, 200);
      assert.equal((await shown('https://evil.example')).status, 403);
    } finally {
      await service.close();
      await smtp.close();
    }
  });
});

describe('the catalogue file', () => {
  test('the example of docs/service.md imports as it stands, and its export imports again without a change', async () => {
    const dataDir = folder();
    const docs = readFileSync(join(REPO_ROOT, 'docs/service.md'), 'utf8');
    const example = /## The catalogue file[\s\S]*?```json\n([\s\S]*?)```/.exec(docs)![1]!;
    const file = join(dataDir, 'example.json');
    writeFileSync(file, example);
    // The service's first start makes the store; support works on it.
    await (await startService({ port: 0, dataDir, dev: false, quiet: true, publicUrl: 'https://booking.example.com' })).close();
    const env = { DATA_DIR: dataDir, SERVICE_MODE: 'production' };
    const json = async (...argv: string[]) => {
      const { code, out, err } = await runSupport([...argv, '--json'], env);
      assert.equal(code, 0, err);
      return JSON.parse(out);
    };
    const company = await json(
      'company',
      'create',
      '--name',
      'Docs Co',
      '--owner-email',
      'd@docs.example',
      '--owner-first-name',
      'D',
      '--owner-last-name',
      'Oc',
    );
    const imported = await json('catalogue', 'import', '--company', String(company.company_id), file);
    assert.deepEqual(imported.imported, { programmes: 1, classes: 1, lecturers: 1, places: 1, vouchers: 1, videos: 1 });
    const exported = join(dataDir, 'export.json');
    await json('catalogue', 'export', '--company', String(company.company_id), exported);
    await json('catalogue', 'import', '--company', String(company.company_id), exported);
    const again = join(dataDir, 'again.json');
    await json('catalogue', 'export', '--company', String(company.company_id), again);
    assert.deepEqual(JSON.parse(readFileSync(again, 'utf8')), JSON.parse(readFileSync(exported, 'utf8')));
  });
});

describe('the support tool refuses what would hurt, saying how to fix it', () => {
  test('options, commands and folders', async () => {
    const dataDir = folder();
    const env = { DATA_DIR: dataDir };
    // No store in the folder (a typo in DATA_DIR): refused, and none is made.
    const none = await runSupport(['company', 'list', '--json'], env);
    assert.equal(none.code, 1);
    assert.match(JSON.parse(none.err).error.problems[0], /There is no store in .*: is DATA_DIR right\?/);
    const unknown = await runSupport(['company', 'delete', '--json'], env);
    assert.equal(unknown.code, 2);
    assert.match(JSON.parse(unknown.err).error.problems[0], /There is no command "company delete"/);
    assert.ok(!existsSync(join(dataDir, 'service.sqlite')), 'nothing was made');

    const service = await startService({ port: 0, dataDir, dev: false, quiet: true, publicUrl: 'https://booking.example.com' });
    try {
      const create = (...argv: string[]) =>
        runSupport(
          [
            'company',
            'create',
            '--owner-email',
            'o@acme.example',
            '--owner-first-name',
            'O',
            '--owner-last-name',
            'Wner',
            ...argv,
            '--json',
          ],
          env,
        );
      const typo = await create('--name', 'Acme', '--vatt', '8');
      assert.equal(typo.code, 2);
      assert.match(typo.err, /--vatt is no option of the support tool/);
      const swallowed = await runSupport(
        [
          'company',
          'create',
          '--name',
          'Acme',
          '--owner-email',
          'o@acme.example',
          '--owner-first-name',
          'O',
          '--owner-last-name',
          '--json',
        ],
        env,
      );
      assert.equal(swallowed.code, 2);
      assert.match(swallowed.err, /--owner-last-name needs a value/);
      for (const vat of ['', '19.999', 'x'])
        assert.match((await create('--name', 'Acme', '--vat', vat)).err, /--vat: the VAT rate in percent/, vat);
      assert.match((await create('--name', 'Evil\u202eCorp')).err, /--name: .*plain text/);
      // A wrong owner's email is said once: no --contact-email was given to be wrong too.
      const wrongOwner = await runSupport(
        [
          'company',
          'create',
          '--name',
          'Acme',
          '--owner-email',
          'nope',
          '--owner-first-name',
          'O',
          '--owner-last-name',
          'Wner',
          '--json',
        ],
        env,
      );
      assert.deepEqual(JSON.parse(wrongOwner.err).error.problems, [
        '--owner-email: the owner’s email address, such as olivia@acme.example.',
      ]);
      assert.match(
        (await create('--name', 'Acme', '--contact-email', 'nope')).err,
        /--contact-email: the address contact messages are sent to/,
      );

      // Companies whose names start alike each get order numbers of their own.
      const acme = JSON.parse((await create('--name', 'Acme Training')).out);
      const alpha = JSON.parse((await create('--name', 'Alpha School')).out);
      const prefixes = (await runSqlite(dataDir, 'SELECT order_prefix FROM companies ORDER BY id')).map(
        (r: Json) => r.order_prefix,
      );
      assert.deepEqual(prefixes, ['A', 'AL']);
      assert.notEqual(acme.company_id, alpha.company_id);

      const key = (...origins: string[]) =>
        runSupport(
          [
            'widget-key',
            'create',
            '--company',
            String(acme.company_id),
            '--type',
            'registration',
            ...origins.flatMap((o) => ['--origin', o]),
          ],
          env,
        );
      assert.match((await key('https://*.acme.example')).err, /A key serves named hosts, not a pattern of them/);
      const http = await key('http://www.acme.example');
      assert.match(
        http.err,
        /--origin http:\/\/www\.acme\.example: widgets show on secure pages only: https:\/\/www\.acme\.example\.$/m,
      );
    } finally {
      await service.close();
    }
  });

  test('a catalogue that would show wrong text, prices or times', async () => {
    const dataDir = folder();
    const service = await startService({ port: 0, dataDir, dev: false, quiet: true, publicUrl: 'https://booking.example.com' });
    const env = { DATA_DIR: dataDir };
    try {
      const company = JSON.parse(
        (
          await runSupport(
            [
              'company',
              'create',
              '--name',
              'Acme',
              '--owner-email',
              'o@acme.example',
              '--owner-first-name',
              'O',
              '--owner-last-name',
              'Wner',
              '--json',
            ],
            env,
          )
        ).out,
      );
      const klass = (extra: Record<string, unknown> = {}) => ({
        starts_at: '2027-05-01T08:00:00Z',
        ends_at: '2027-05-01T16:00:00Z',
        timezone: 'Europe/Berlin',
        location: 'Berlin',
        price: { amount: 1000, currency: 'EUR' },
        capacity: 10,
        ...extra,
      });
      const problemsOf = async (catalogue: unknown) => {
        const file = join(dataDir, 'catalogue.json');
        writeFileSync(file, `\uFEFF${JSON.stringify(catalogue)}`);
        const { code, out, err } = await runSupport(
          ['catalogue', 'import', '--company', String(company.company_id), file, '--json'],
          env,
        );
        return code === 0 ? JSON.parse(out) : (JSON.parse(err).error.problems as string[]);
      };
      const said = await problemsOf({
        programmes: [
          {
            id: 'crs_a',
            title: 'Evil\u202eTitle',
            summary: 'Fine\nacross lines',
            category: 'c\u001b[31m',
            classes: [
              klass({ id: 'cls_a', price: { amount: 9007199254740991, currency: 'EUR' } }),
              klass({ id: 'cls_b', starts_at: '2027-05-01T08:00', price: { amount: 1000, currency: 'USD' } }),
              klass({ id: 'cls_a', starts_at: '+275760-09-13T00:00:00Z' }),
            ],
          },
        ],
        vouchers: [
          { code: 'DUP', percent: 10 },
          { code: 'dup', percent: 20 },
        ],
      });
      const expected = [
        /^programmes\.0\.title: title must be plain text on one line/,
        /^programmes\.0\.category: category must be plain text/,
        /^programmes\.0\.classes\.0\.price\.amount: An amount is at most 100000000 minor units/,
        /^programmes\.0\.classes\.1\.starts_at: starts_at must be a time with its offset/,
        /^programmes\.0\.classes\.2\.starts_at: starts_at must be a time with its offset, .* between 2000 and 2100/,
        /^programmes\.0\.classes\.2\.id: The class cls_a is in the file twice \(first at programmes\.0\.classes\.0\.id\)/,
        /^vouchers\.1\.code: The voucher code DUP is in the file twice/,
      ];
      for (const pattern of expected)
        assert.ok(
          said.some((p: string) => pattern.test(p)),
          `${pattern} in:\n${said.join('\n')}`,
        );

      // Past the schema: the company's currency, the captions' files, and seats booked already.
      const second = await problemsOf({
        programmes: [{ title: 'T', summary: 'S', category: 'C', classes: [klass({ price: { amount: 1000, currency: 'USD' } })] }],
        videos: [{ title: 'V', access: 'public', media: 'members', duration_s: 60, width: 1280, height: 720, captions: ['fr'] }],
      });
      assert.ok(
        second.some((p: string) => /classes\.0\.price\.currency: the company's prices are in EUR, not USD/.test(p)),
        second.join('\n'),
      );
      assert.ok(
        second.some((p: string) => /videos\.0\.captions\.0: there is no members\.fr\.vtt/.test(p)),
        second.join('\n'),
      );
      // One class, tomorrow, of 2 seats (its times taken once: a re-import of it changes nothing unasked).
      const [starts_at, ends_at] = [86400_000, 90000_000].map((ms) =>
        new Date(Date.now() + ms).toISOString().replace(/\.\d+Z$/, 'Z'),
      );
      const bookedClass = (extra: Record<string, unknown> = {}) => ({
        programmes: [
          {
            id: 'crs_ok',
            title: 'T',
            summary: 'S',
            category: 'C',
            classes: [klass({ id: 'cls_ok', capacity: 2, starts_at, ends_at, ...extra })],
          },
        ],
      });
      assert.equal((await problemsOf(bookedClass())).imported.classes, 1);
      const { key } = JSON.parse(
        (
          await runSupport(
            [
              'widget-key',
              'create',
              '--company',
              String(company.company_id),
              '--type',
              'registration',
              '--origin',
              'https://www.acme.example',
              '--json',
            ],
            env,
          )
        ).out,
      );
      for (const email of ['one@example.org', 'two@example.org']) {
        const res = await fetch(`${service.url}/widget-api/v1/registrations?key=${key}`, {
          method: 'POST',
          headers: writeHeaders(uniqueKey(), 'https://www.acme.example'),
          body: JSON.stringify(registrationBody({ class_id: 'cls_ok', email })),
        });
        assert.equal(res.status, 201);
      }
      const shrunk = await problemsOf(bookedClass({ capacity: 1 }));
      assert.ok(
        shrunk.some((p: string) => /capacity: cls_ok has 2 seats booked already/.test(p)),
        shrunk.join('\n'),
      );

      // A booked class keeps its time, place and price unless support says it moves (--move-booked).
      const moved = await problemsOf(bookedClass({ location: 'Hamburg', price: { amount: 1500, currency: 'EUR' } }));
      assert.deepEqual(moved, [
        'programmes.0.classes.0: cls_ok has 2 places booked: its place, price would change under them. Keep them as they are, or import with --move-booked and tell its participants yourself.',
      ]);
      assert.equal((await runSqlite(dataDir, "SELECT location FROM classes WHERE id = 'cls_ok'"))[0]!.location, 'Berlin');
      const file = join(dataDir, 'catalogue.json');
      writeFileSync(file, JSON.stringify(bookedClass({ location: 'Hamburg' })));
      const forced = await runSupport(
        ['catalogue', 'import', '--company', String(company.company_id), file, '--move-booked', '--json'],
        env,
      );
      assert.equal(forced.code, 0, forced.err);
      assert.equal((await runSqlite(dataDir, "SELECT location FROM classes WHERE id = 'cls_ok'"))[0]!.location, 'Hamburg');
    } finally {
      await service.close();
    }
  });
});

/** Rows of a store's SQLite file. */
async function runSqlite(dataDir: string, query: string): Promise<Json[]> {
  const db = new Database(join(dataDir, 'service.sqlite'), { readonly: true });
  try {
    return db.prepare(query).all() as Json[];
  } finally {
    db.close();
  }
}
