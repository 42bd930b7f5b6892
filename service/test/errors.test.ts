import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Clock } from '../core/clock.ts';
import { openStore } from '../db/database.ts';
import { buildApp, serviceDeps } from '../server.ts';

test('an unhandled exception answers 500 internal in the error shape, and is logged', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'service-errors-'));
  const clock = new Clock();
  const store = await openStore(dataDir, clock, { mode: 'development' });
  const logged: unknown[] = [];
  try {
    const app = buildApp({
      ...serviceDeps(store, clock, {
        dev: true,
        distDir: dataDir,
        demoDir: dataDir,
        publicUrl: 'http://localhost:1',
        quiet: true,
      }),
      logError: (message, err) => logged.push(message, err),
    });
    app.get('/widget-api/v1/boom', () => {
      throw new Error('a bug');
    });
    const res = await app.request('/widget-api/v1/boom', { headers: { Origin: 'http://localhost:3000' } });
    assert.equal(res.status, 500);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'internal');
    assert.doesNotMatch(body.error.message, /a bug/, 'no internals in the answer');
    assert.equal(res.headers.get('access-control-allow-origin'), 'http://localhost:3000');
    assert.match(String(logged[0]), /GET \/widget-api\/v1\/boom/);
    assert.equal((logged[1] as Error).message, 'a bug');
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
