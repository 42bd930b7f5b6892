import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support.ts';

/**
 * The environment of a person who opens a terminal and types `npm start`: none of the `npm_*`
 * variables the npm running these tests passes on, and no npm settings of this machine's user (an
 * empty user config), so that any warning printed is ours.
 */
const freshShell = (): NodeJS.ProcessEnv => {
  const userconfig = join(mkdtempSync(join(tmpdir(), 'npmrc-')), 'npmrc');
  writeFileSync(userconfig, '');
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, npm_config_userconfig: userconfig };
};

test('npm start tells each step with its time, then the demo, the outbox and a snippet; the demo there works; it stops on SIGTERM to the npm process (kill <pid>) and frees its port', async ({
  watched: page,
}) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'start-'));
  // A port of its own (E2E_START_PORT), so that two runs on one machine do not meet.
  const port = Number(process.env.E2E_START_PORT ?? '8796');
  const { npm, printed } = await npmStart(port, dataDir, freshShell());
  try {
    const url = printed.match(/running at (http:\/\/\S+)/)?.[1];
    expect(url).toBe(`http://localhost:${port}/`);
    for (const name of ['install', 'build', 'seed', 'serve'])
      expect(printed).toMatch(new RegExp(`^  ${name} +\\S.* \\d+\\.\\d s$`, 'm'));
    expect(printed).toContain('created and seeded now');
    expect(printed).toMatch(new RegExp(`^  Demo +${url}$`, 'm'));
    expect(printed).toMatch(new RegExp(`^  Outbox +${url}demo/outbox.html `, 'm'));
    expect(printed).toContain(
      `  <div data-service-widget="registration" data-service-id="wk_demo_registration"></div>\n  <script async src="${url}widgets/v1/loader.js"></script>`,
    );
    expect(printed, 'nothing of ours warns').not.toMatch(/warn/i);
    await page.goto(url!);
    await expect(page.locator('div[data-service-widget=registration]').first()).toHaveAttribute('data-service-state', 'ready');
    await page.goto(`${url}demo/outbox.html`);
    await expect(page.locator('#count')).toHaveText('No emails yet.');

    // It stops on SIGTERM to the npm process (kill <pid>) and frees its port.
    expect(await listening(port)).toBe(true);
    process.kill(npm.pid!, 'SIGTERM');
    await expect.poll(() => listening(port), { timeout: 10_000 }).toBe(false);
  } finally {
    stopGroup(npm.pid!);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('npm start in production says each step as a JSON line, like the service’s own log: no line of text among them; it stops on Ctrl+C (SIGINT to the whole process group) and frees its port', async () => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'start-production-'));
  const port = Number(process.env.E2E_START_PORT ?? '8796');
  // npm's -s leaves out its own banner (two lines of text); production comes from PUBLIC_URL.
  const npm = spawn('npm', ['-s', 'start'], {
    env: {
      ...freshShell(),
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://booking.example.com',
      SMTP_URL: 'smtp://127.0.0.1:9',
      SMTP_FROM: 'bookings@booking.example.com',
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      let rest = '';
      npm.stdout!.on('data', (chunk: Buffer) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        lines.push(...parts.filter(Boolean));
        if (lines.some((line) => line.includes('"mode":"production"'))) resolve();
      });
      npm.on('exit', (code) => reject(new Error(`npm start ended (${code}):\n${lines.join('\n')}`)));
    });
    const logged = lines.map((line) => JSON.parse(line) as { level: string; msg: string; step?: string });
    expect(logged.every((l) => l.level && l.msg)).toBe(true);
    expect(logged.filter((l) => l.step).map((l) => l.step)).toEqual(['install', 'build', 'store', 'serve']);
    const ready = logged.find((l) => (l as { mode?: string }).mode === 'production')!;
    expect(ready.msg).toMatch(/^Ready in \d+\.\d s, in production, at https:\/\/booking\.example\.com\/$/);

    // It stops on Ctrl+C (SIGINT to the whole process group) and frees its port.
    expect(await listening(port)).toBe(true);
    process.kill(-npm.pid!, 'SIGINT');
    await expect.poll(() => listening(port), { timeout: 10_000 }).toBe(false);
  } finally {
    stopGroup(npm.pid!);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * Ends what is left of a test's `npm start` (its process group), so that a failed check leaves nothing
 * on the port. Each start is stopped by a signal a person sends; the first two tests check that each
 * way frees the port (a development and a production start run the same script and service).
 */
const stopGroup = (pid: number) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
};

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(!!socket.destroy()));
    socket.once('error', () => resolve(false));
  });

/** `npm start` in a process group of its own, once it says where it runs. */
async function npmStart(port: number, dataDir: string, env = process.env) {
  const npm = spawn('npm', ['start'], {
    env: { ...env, PORT: String(port), DATA_DIR: dataDir },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      printed += chunk;
      if (/Ctrl\+C stops the service/.test(printed)) resolve();
    };
    npm.stdout.on('data', read);
    npm.stderr.on('data', read);
    npm.on('exit', (code) => reject(new Error(`npm start ended (${code}) before it ran:\n${printed}`)));
  });
  return { npm, printed };
}

test('the install builds native modules against local headers, in a way npm does not warn about', async () => {
  const run = (file: string, args: string[], env: NodeJS.ProcessEnv) =>
    new Promise<string>((resolve) => {
      const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (out += chunk));
      child.on('close', () => resolve(out));
    });
  // What setup.mjs hands `npm ci`, from a shell that exported the older setting.
  const env = JSON.parse(
    await run(
      process.execPath,
      ['--input-type=module', '-e', "console.log(JSON.stringify((await import('./scripts/setup.mjs')).nativeBuildEnv()))"],
      { ...process.env, npm_config_nodedir: '/opt/node' },
    ),
  );
  expect(env.npm_config_nodedir).toBeUndefined();
  expect(env.npm_package_config_node_gyp_nodedir, 'what node-gyp reads').toBe('/opt/node');
  // npm itself (`npm prefix` reads its settings and prints one line), with no user settings of this
  // machine in the way: not a word, where a setting of npm's environment it does not know makes it
  // warn (earlier releases of npm 11 warned about `nodedir` too; 11.19 knows it).
  const { npm_config_userconfig: userconfig } = freshShell();
  expect(await run('npm', ['prefix'], { ...env, npm_config_userconfig: userconfig })).toBe(`${process.cwd()}\n`);
  expect(
    await run('npm', ['prefix'], { ...env, npm_config_node_gyp_nodedir: '/usr', npm_config_userconfig: userconfig }),
  ).toMatch(/Unknown env config "node-gyp-nodedir"/);
});
