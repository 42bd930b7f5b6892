import { spawn } from 'node:child_process';
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
    await expect(page.locator('main > section div[data-service-widget=registration]').first()).toHaveAttribute('data-service-state', 'ready');
  } finally {
    process.kill(-started.pid!, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
