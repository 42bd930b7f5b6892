import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '../serving.ts';
import { startProduction } from './production-service.ts';
import { expect, test } from './support.ts';

/**
 * Issue 19's path in production, as a company meets it: support opens the company, its owner signs in
 * to the app at the service's https address with the PIN of an email received by SMTP, creates a
 * calendar widget for the company's site, copies its snippet, and the site's page shows the calendar;
 * a page of another origin is refused.
 */

/** An https server on this machine for `host`, answering with `handle` (a folder of its own for the certificate). */
async function httpsServer(
  host: string,
  handle: Parameters<typeof createHttpsServer>[1],
): Promise<{ server: Server; port: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'https-'));
  const certificate = selfSignedCertificate(dir, host);
  const server = createHttpsServer({ key: readFileSync(certificate.key), cert: readFileSync(certificate.cert) }, handle);
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

test('support’s new company: its owner signs in to the app by the emailed PIN, publishes a calendar, and its site shows it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The service behind an https front, as an operator runs it: people reach it at https://booking.example.com:<port>.
  let serviceUrl = '';
  const front = await httpsServer('booking.example.com', (req, res) => {
    const target = new URL(serviceUrl);
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  const publicUrl = `https://booking.example.com:${front.port}`;
  let page = '';
  const site = await httpsServer('www.acme.example', (req, res) => {
    res.writeHead(req.url === '/' ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(req.url === '/' ? page : '');
  });
  const siteOrigin = `https://www.acme.example:${site.port}`;
  const service = await startProduction(publicUrl);
  serviceUrl = service.url;
  try {
    const owner = 'olivia@acme.example';
    service.openCompany(owner);

    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: publicUrl });
    const app = await context.newPage();
    await app.goto(`${publicUrl}/app/`);
    await app.getByLabel('Email address').fill(owner);
    await app.getByRole('button', { name: 'Email me a PIN' }).click();
    await expect(app.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    // No outbox in production: the PIN comes by email, with the app's link at the public address.
    const mail = await service.nextMail();
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(owner);
    expect(mail.text).toContain(`${publicUrl}/app/?key=tok_`);
    const pin = /\b(\d{6})\b/.exec(mail.text ?? '')![1]!;
    await app.getByLabel('PIN').fill(pin);
    await app.getByRole('button', { name: 'Sign in' }).click();

    // One company: its widgets at once, none yet.
    await expect(app.getByText('Acme Training').first()).toBeVisible();
    await expect(app.getByText(/No widgets yet/)).toBeVisible();
    const cookies = await context.cookies(publicUrl);
    const session = cookies.find((c) => c.name === '__Host-service_app_session')!;
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

    await app.getByRole('link', { name: 'New widget' }).first().click();
    await app.getByRole('radio', { name: /Calendar/ }).check();
    await app.getByLabel('Name').fill('Calendar on the home page');
    // http://localhost is development's only: production takes https origins, and says so beside the field.
    await app.getByLabel('Origins').fill('http://localhost:3000');
    await app.getByRole('button', { name: 'Create widget' }).click();
    await expect(app.getByText(/secure pages only/)).toBeVisible();
    await expect(app.getByLabel('Name')).toHaveValue('Calendar on the home page');
    await app.getByLabel('Origins').fill(siteOrigin);
    await app.getByRole('button', { name: 'Create widget' }).click();
    await expect(app.getByRole('heading', { name: 'Calendar on the home page', level: 1 })).toBeVisible();

    // The snippet, copied as the owner copies it, pasted into the site's page.
    await app.getByRole('button', { name: 'Copy snippet' }).click();
    const snippet = await app.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toContain(`<script async src="${publicUrl}/widgets/v2/loader.js"></script>`);
    page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Training</title><link rel="icon" href="data:,"></head><body><h1>Courses</h1>\n${snippet}\n</body></html>`;
    const visitor = await context.newPage();
    await visitor.goto(`${siteOrigin}/`);
    await expect(visitor.locator('div[data-service-widget="calendar"]')).toHaveAttribute('data-service-state', 'ready');
    await expect(visitor.locator('service-calendar')).toBeVisible();

    // The same snippet on a page of another origin is refused.
    await visitor.goto(`https://127.0.0.1:${site.port}/`);
    await expect(visitor.locator('div[data-service-widget="calendar"]')).toHaveAttribute(
      'data-service-error',
      'origin-not-allowed',
    );
    await context.close();
  } finally {
    front.server.close();
    site.server.close();
    await service.stop();
  }
});
