import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test as base, type Locator, type Page } from '@playwright/test';

export const SERVICE = process.env.E2E_SERVICE_URL!;
export const SITE = process.env.E2E_SITE_URL!;
export const INSECURE_SITE = process.env.E2E_INSECURE_SITE_URL!;

export const serviceJson = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const response = await fetch(SERVICE + path, init);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
};

/**
 * A page that records what would go unnoticed otherwise: CSP violations, uncaught errors and console
 * errors. Each test states which console errors it expects (and the CSP directive a violation of
 * which it expects, the test's subject); any other fails it.
 */
export const test = base.extend<{
  watched: Page & { consoleErrors: string[]; expectConsoleErrors(n: number, violatedDirective?: string): void };
}>({
  watched: async ({ page }, use) => {
    const consoleErrors: string[] = [];
    const problems: string[] = [];
    let expected = 0;
    let violation = '';
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    await use(
      Object.assign(page, {
        consoleErrors,
        expectConsoleErrors: (n: number, violatedDirective = '') => ([expected, violation] = [n, violatedDirective]),
      }),
    );
    // A test's routes may still be answering (a video streams on after its last check): they end with
    // the test, rather than failing the next one ("route.fetch: Test ended").
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(problems).toEqual([]);
    expect(
      consoleErrors.filter(
        (line) => line.includes('CSP violation') && !(violation && line.includes(`CSP violation: ${violation}`)),
      ),
    ).toEqual([]);
    expect(consoleErrors).toHaveLength(expected);
  },
});

/**
 * Fails the first `failures` requests for each widget chunk whose file name matches, like a network
 * that drops them, and lists every chunk request (file name and query).
 */
export const flakyChunks = async (page: Page, failures: number, names = /./) => {
  const requests: string[] = [];
  const failed: Record<string, number> = {};
  await page.route(`${SERVICE}/widgets/chunks/**`, (route) => {
    const { pathname, search } = new URL(route.request().url());
    const file = pathname.split('/').pop()!;
    requests.push(file + search);
    if (!names.test(file) || (failed[file] = (failed[file] ?? 0) + 1) > failures) return route.continue();
    return route.abort('connectionrefused');
  });
  return requests;
};
/**
 * Records the named events that reach the document (a widget's events bubble and are composed). Await
 * it before acting, so that no event can come before its listener; read what came with the function it
 * returns (poll it: `await expect.poll(events).toEqual([...])`).
 */
export const recordEvents = async (page: Page, ...names: string[]) => {
  await page.evaluate((names) => {
    const w = window as unknown as { recorded: { type: string; detail: unknown }[]; listened?: Set<string> };
    w.recorded = [];
    w.listened ??= new Set();
    for (const name of names.filter((name) => !w.listened!.has(name))) {
      w.listened.add(name);
      document.addEventListener(name, (e) => w.recorded.push({ type: e.type, detail: (e as CustomEvent).detail }));
    }
  }, names);
  return () => page.evaluate(() => (window as unknown as { recorded: { type: string; detail: unknown }[] }).recorded);
};

/**
 * Opens the page's next loads signed in as a participant of Acme Academy, as the profile widget leaves
 * the page's session after the PIN (signed in through the widget API with the emailed PIN). `key`:
 * the widget key that finds the session before its first answer.
 */
export const signedIn = async (page: Page, email: string, key = 'wk_demo_profile') => {
  const post = async (path: string, body: unknown) =>
    (
      await fetch(`${SERVICE}/widget-api/v1/participant/${path}?key=wk_demo_profile`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: SITE },
        body: JSON.stringify(body),
      })
    ).json();
  await post('login', { email, return_url: `${SITE}/` });
  const { emails } = await serviceJson<{ emails: { pin: string }[] }>(`/dev/outbox?to=${encodeURIComponent(email)}`);
  const { token, participant } = await post('verify', { email, pin: emails[0]!.pin });
  await page.addInitScript(
    ({ base, key, session }) => {
      sessionStorage.setItem(`service-widgets:company:${base}:${key}`, 'c_acme');
      sessionStorage.setItem(`service-widgets:session:${base}:c_acme`, session);
    },
    { base: `${SERVICE}/`, key, session: JSON.stringify({ token, participant }) },
  );
  return token as string;
};

/** Moves the service's clock forward (its links, PINs and tokens expire by it). */
export const advanceClock = (seconds: number) =>
  serviceJson('/dev/clock', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance_s: seconds }),
  });

/** The requests of one chunk (`registration`: not `registration-form`), by its name and 6-character hash. */
export const ofChunk = (requests: string[], name: string) =>
  requests.filter((r) => new RegExp(`^${name}-[\\w-]{6}\\.js`).test(r));

/**
 * Starts listening for the next `name` event on an element (or the document) and resolves once the
 * listener is in place, with a function that waits for the event's `detail`. Do the action that
 * fires it between the two: a listener still on its way would miss an event that comes quickly.
 */
export const nextEvent = async (target: Page | Locator, name: string): Promise<() => Promise<unknown>> => {
  type Listening = { detail: Promise<unknown> };
  const handle =
    'goto' in target
      ? await target.evaluateHandle(
          (event): Listening => ({
            detail: new Promise((resolve) =>
              document.addEventListener(event, (e) => resolve((e as CustomEvent).detail), { once: true }),
            ),
          }),
          name,
        )
      : await target.evaluateHandle(
          (el, event): Listening => ({
            detail: new Promise((resolve) =>
              el.addEventListener(event, (e) => resolve((e as CustomEvent).detail), { once: true }),
            ),
          }),
          name,
        );
  return () => handle.evaluate((listening) => listening.detail);
};

/** axe-core, evaluated in the page by the browser's tools (which no Content-Security-Policy stops). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe finds on the page as it is now, every rule and impact, into the widgets' shadow roots: one line each. */
export const axeViolations = async (page: Page): Promise<string[]> => {
  // Once per document: sending and compiling its half a megabyte took about 0.2 s a time here.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const { violations } = await (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
  });
};

/** How far the page is wider than the window: 0 when nothing scrolls sideways. */
export const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

export { expect };
