import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support.ts';

test('npm start builds, seeds a new data folder, prints the URL, and the demo there works', async ({ watched: page }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'start-'));
  const started = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, PORT: '8796', DATA_DIR: dataDir },
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
    expect(url).toBe('http://localhost:8796/');
    expect(printed).toContain('created and seeded now');
    await page.goto(url);
    await expect(page.locator('main > section div[data-service-widget=registration]').first()).toHaveAttribute('data-service-state', 'ready');
  } finally {
    process.kill(-started.pid!, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
