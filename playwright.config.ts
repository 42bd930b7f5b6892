/**
 * End-to-end tests: the built loaders on a customer's pages (test/e2e/site.mjs, its own origin and a
 * strict CSP), the real reference service with a fresh SQLite file, Debian's Chromium.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';

const servicePort = Number(process.env.E2E_SERVICE_PORT ?? 8791);
const sitePort = Number(process.env.E2E_SITE_PORT ?? 8792);
export const SERVICE_URL = `http://127.0.0.1:${servicePort}`;
process.env.E2E_SERVICE_URL = SERVICE_URL;
process.env.E2E_SITE_URL = `http://127.0.0.1:${sitePort}`;
process.env.E2E_INSECURE_SITE_URL = `http://shop.example:${sitePort}`;
// Evaluated again in each worker: only the first (main process) value reaches the web servers.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'widgets-e2e-'));

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  // Ceilings for a state that never comes, not measures of speed (that is `npm run bench`): on a
  // busy 2-core machine (npm test runs two steps at a time) a keyboard journey took over 20 s and
  // a step's wait over 5 s, and failed a run that was right.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: '.cache/e2e-results.json' }]],
  use: {
    browserName: 'chromium',
    // A customer's plain-http site on another host name (not a secure context).
    launchOptions: chromiumLaunchOptions({
      args: ['--host-resolver-rules=MAP shop.example 127.0.0.1,MAP www.acme.example 127.0.0.1,MAP booking.example.com 127.0.0.1'],
    }),
  },
  webServer: [
    {
      command: 'node node_modules/tsx/dist/cli.mjs service/main.ts --development',
      url: `${SERVICE_URL}/dev/seed`,
      env: { PORT: String(servicePort), DATA_DIR: process.env.E2E_DATA_DIR },
      reuseExistingServer: false,
      stdout: 'ignore',
    },
    {
      command: 'node test/e2e/site.mjs',
      url: `http://127.0.0.1:${sitePort}/registration.html`,
      env: { SITE_PORT: String(sitePort), SERVICE_URL },
      reuseExistingServer: false,
    },
  ],
});
