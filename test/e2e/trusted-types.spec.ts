/**
 * A host page with its own Lit, which created the Trusted Types policy `lit-html`, under a
 * Content-Security-Policy that enforces Trusted Types and forbids duplicate policies. The widgets'
 * copy of Lit names its policy `service-widgets`: allowed, the widget works; not allowed, the
 * loader says what happened (script-error) and how to fix it, never `network`.
 */
import { TRUSTED_TYPES_POLICY } from '../../contract/index.ts';
import { expect, SITE, test } from './support.ts';

test('a host that created lit-html itself and allows service-widgets: the widget works', async ({ watched: page }) => {
  await page.goto(`${SITE}/trusted-types-allowed.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.locator('service-registration').getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
});

test('a host whose policy list leaves service-widgets out: script-error, saying which policy to allow', async ({
  watched: page,
}) => {
  // The browser reports the refused policy (a violation of trusted-types), and the loader its fix-it line.
  page.expectConsoleErrors(3, 'trusted-types');
  await page.goto(`${SITE}/trusted-types-refused.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-error', 'script-error');
  await expect(div).toHaveAttribute('data-service-state', 'error');
  await expect(div.getByRole('link', { name: 'See our programmes on the booking page' })).toBeVisible();
  // 127.0.0.1 is a development page: the owner's line shows.
  await expect(div.getByRole('alert')).toContainText(`Allow the policy "${TRUSTED_TYPES_POLICY}"`);
  expect(page.consoleErrors.join('\n')).toContain(`trusted-types ${TRUSTED_TYPES_POLICY}`);
});
