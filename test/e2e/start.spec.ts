import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support.ts';

test('npm start builds, seeds a new data folder, prints the URL, and the demo there works', async ({ watched: page }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'start-'));
  // A port of its own (E2E_START_PORT), so that two runs on one machine do not meet.
  const port = process.env.E2E_START_PORT ?? '8796';
  const started = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, PORT: port, DATA_DIR: dataDir },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let printed = '';
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        printed += chunk;
        const found = printed.match(/running at (http:\/\/\S+)[\s\S]*Demo credentials/);
        if (found) resolve(found[1]!);
      };
      started.stdout.on('data', read);
      started.stderr.on('data', read);
      started.on('exit', (code) => reject(new Error(`npm start ended (${code}) before printing a URL:\n${printed}`)));
    });
    expect(url).toBe(`http://localhost:${port}/`);
    expect(printed).toContain('created and seeded now');
    await page.goto(url);
    await expect(page.locator('main > section div[data-service-widget=registration]').first()).toHaveAttribute(
      'data-service-state',
      'ready',
    );
  } finally {
    process.kill(-started.pid!, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(!!socket.destroy()));
    socket.once('error', () => resolve(false));
  });

/** `npm start` in a process group of its own, once it says where it runs. */
async function npmStart(port: number, dataDir: string) {
  const npm = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      printed += chunk;
      if (/Demo credentials/.test(printed)) resolve();
    };
    npm.stdout.on('data', read);
    npm.stderr.on('data', read);
    npm.on('exit', (code) => reject(new Error(`npm start ended (${code}) before it ran:\n${printed}`)));
  });
  return npm;
}

for (const [how, stop] of [
  ['SIGTERM to the npm process (kill <pid>)', (pid: number) => process.kill(pid, 'SIGTERM')],
  ['Ctrl+C (SIGINT to the whole process group)', (pid: number) => process.kill(-pid, 'SIGINT')],
] as const) {
  test(`npm start stops on ${how} and frees its port`, async () => {
    test.setTimeout(120_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'start-stop-'));
    const port = Number(process.env.E2E_START_PORT ?? '8796');
    const npm = await npmStart(port, dataDir);
    try {
      expect(await listening(port)).toBe(true);
      stop(npm.pid!);
      await expect.poll(() => listening(port), { timeout: 10_000 }).toBe(false);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
