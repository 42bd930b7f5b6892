import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { selfSignedCertificate } from '../serving.ts';
import { startProduction } from './production-service.ts';
import { expect, test } from './support.ts';

/**
 * The whole path of an operator and a site owner, in production: the service started as an operator
 * starts it (no demo, real SMTP), support opens a company with the support tool, and the snippet with
 * its widget key works on the key's https page, whose visitor's confirmation reaches the mail server.
 */

test('support’s company, in production: its widget key on its https page, and the visitor’s confirmation email through SMTP', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The service as an operator starts it: production by default, every setting given.
  const service = await startProduction();
  const { folder } = service;
  // The store's files are the service's user's alone (participants' emails, PINs of queued mail).
  for (const file of readdirSync(folder).filter((name) => name.startsWith('service.sqlite') || name === 'store.json'))
    expect(statSync(join(folder, file)).mode & 0o077, file).toBe(0);
  // The customer's https site, on its own host name (resolved to this machine), with a certificate of its own.
  const certificate = selfSignedCertificate(folder, 'www.acme.example');
  let page = '';
  const site: Server = createHttpsServer(
    { key: readFileSync(certificate.key), cert: readFileSync(certificate.cert) },
    (req, res) => {
      res.writeHead(req.url === '/' ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(req.url === '/' ? page : '');
    },
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `https://www.acme.example:${(site.address() as AddressInfo).port}`;

  try {
    const { started } = service;
    expect(started).toMatch(/\(production\), reached at https:\/\/booking\.example\.com\/\.$/);
    const serviceUrl = service.url;
    expect((await fetch(`${serviceUrl}/dev/seed`)).status).toBe(404);

    // Support opens the company, gives it a catalogue and a widget key for the site.
    const support = service.support<{ company_id: number; key: string }>;
    const company = service.openCompany('olivia@acme.example');
    const starts = new Date(Date.now() + 10 * 86400_000);
    starts.setUTCHours(8, 0, 0, 0);
    writeFileSync(
      join(folder, 'catalogue.json'),
      JSON.stringify({
        programmes: [
          {
            title: 'First aid at work',
            summary: 'A day of first aid for workplace first aiders.',
            category: 'Safety',
            classes: [
              {
                starts_at: starts.toISOString(),
                ends_at: new Date(starts.getTime() + 8 * 3600_000).toISOString(),
                timezone: 'Europe/Berlin',
                location: 'Berlin, Torstraße 1',
                price: { amount: 0, currency: 'EUR' },
                capacity: 12,
              },
            ],
          },
        ],
      }),
    );
    support('catalogue', 'import', '--company', String(company.company_id), join(folder, 'catalogue.json'));
    const { key } = support(
      'widget-key',
      'create',
      '--company',
      String(company.company_id),
      '--type',
      'registration',
      '--origin',
      origin,
    );

    // The site owner pastes the README's two lines.
    page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Training</title><link rel="icon" href="data:,"></head><body>
<h1>Courses</h1>
<div data-service-widget="registration" data-service-id="${key}"></div>
<script async src="${serviceUrl}/widgets/v1/loader.js"></script>
</body></html>`;
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const tab = await context.newPage();
    await tab.goto(`${origin}/`);
    await expect(tab.locator('div[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
    const widget = tab.locator('service-registration');
    await expect(widget.getByRole('heading', { name: 'Programmes at Acme Training' })).toBeVisible();
    await widget.getByRole('button', { name: 'Register' }).first().click();
    await widget.getByLabel('First name').fill('Katherine');
    await widget.getByLabel('Last name').fill('Johnson');
    await widget.getByLabel('Email').fill('katherine@example.org');
    await widget.getByRole('checkbox').check();
    const mail = service.nextMail();
    await widget.getByRole('button', { name: 'Register', exact: true }).last().click();
    await expect(widget.getByRole('heading', { name: 'You are registered' })).toBeVisible();

    // The confirmation reaches the mail server, from the company, in the visitor's language.
    const confirmation = await mail;
    expect(confirmation.subject).toBe('Registration confirmed: First aid at work');
    expect(confirmation.from?.value).toEqual([{ address: 'bookings@booking.example.com', name: 'Acme Training' }]);
    expect(confirmation.to && !Array.isArray(confirmation.to) ? confirmation.to.text : '').toBe('katherine@example.org');
    expect(confirmation.text).toContain('Hello Katherine,');
    await context.close();
  } finally {
    site.close();
    await service.stop();
  }
});
