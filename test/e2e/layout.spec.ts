/**
 * No layout shift (docs/architecture.md): each widget's first view fits the space reserved for it, at
 * a desktop and a phone width, in both placements docs/embedding.md gives: the loader in <head>, and an
 * async loader with the space reserved by the site's stylesheet. Measured with the browser's own
 * layout-shift entries, from navigation until the widget has shown and two frames have been drawn.
 */
import { RESERVED_HEIGHT } from '../../contract/index.ts';
import { expect, SERVICE, SITE, test } from './support.ts';

const TYPES = ['registration', 'profile', 'contact', 'calendar', 'checkout', 'video', 'map'] as const;
const WIDTHS = [1280, 375];

for (const placement of ['head', 'reserved'] as const) {
  for (const type of TYPES) {
    for (const width of WIDTHS) {
      test(`${type} at ${width} px, loader ${placement === 'head' ? 'in <head>' : 'async, space reserved by a class'}: layout shift under 0.01`, async ({
        watched: page,
      }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.addInitScript(() => {
          const shifts: number[] = [];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
          }).observe({ type: 'layout-shift', buffered: true });
          Object.assign(window, { shifts });
        });
        await page.goto(`${SITE}/layout-${type}-${placement}.html`);
        const div = page.locator('div[data-service-widget]');
        await expect(div).toHaveAttribute('data-service-state', 'ready');
        const { cls, height } = await page.evaluate(async () => {
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const el = document.querySelector('div[data-service-widget]')!;
          return {
            cls: (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0),
            height: el.getBoundingClientRect().height,
          };
        });
        console.log(
          `${type} ${width}px ${placement}: CLS ${cls.toFixed(4)}, height ${Math.round(height)} (reserved ${RESERVED_HEIGHT[type]})`,
        );
        expect(cls).toBeLessThan(0.01);
        expect(Math.round(height)).toBe(RESERVED_HEIGHT[type]);
      });
    }
  }
}

test('a returning participant’s signed-in view fits the same space, and opens in full on the visitor’s asking', async ({
  watched: page,
}) => {
  // Ada signed in earlier in this tab: her token is in the page's session storage.
  const post = (path: string, body: unknown) =>
    fetch(`${SERVICE}/widget-api/v1/participant/${path}?key=wk_demo_profile`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: SITE },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  await post('login', { email: 'ada@example.org', return_url: `${SITE}/layout-profile-head.html` });
  const outbox = await (await fetch(`${SERVICE}/dev/outbox?to=ada@example.org`)).json();
  const { token, participant } = await post('verify', { email: 'ada@example.org', pin: outbox.emails[0].pin });
  await page.addInitScript(
    ({ base, token, participant }) => {
      sessionStorage.setItem(`service-widgets:company:${base}:wk_demo_profile`, 'c_acme');
      sessionStorage.setItem(`service-widgets:session:${base}:c_acme`, JSON.stringify({ token, participant }));
    },
    { base: `${SERVICE}/`, token, participant },
  );
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.addInitScript(() => {
      const shifts: number[] = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
      Object.assign(window, { shifts });
    });
    await page.goto(`${SITE}/layout-profile-head.html`);
    const widget = page.locator('service-profile');
    await expect(widget.getByRole('heading', { name: 'Hello Ada' })).toBeVisible();
    const showAll = widget.getByRole('button', { name: 'Show your details and classes' });
    await expect(showAll).toBeVisible();
    const { cls, height } = await page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const el = document.querySelector('div[data-service-widget]')!;
      return {
        cls: (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0),
        height: el.getBoundingClientRect().height,
      };
    });
    console.log(`profile signed in, ${width}px: CLS ${cls.toFixed(4)}, height ${Math.round(height)}`);
    expect(cls).toBeLessThan(0.01);
    expect(Math.round(height)).toBe(RESERVED_HEIGHT.profile);
    await showAll.click();
    await expect(widget.getByRole('heading', { name: 'Past classes' })).toBeVisible();
    await expect(widget.locator(':focus')).toHaveText('Your details');
  }
});
