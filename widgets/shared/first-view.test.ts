/**
 * A held first view (first-view.ts, fit.ts) on its own, in a bare element: what a visitor sees of it
 * when its content changes after it was fitted.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { css, LitElement } from 'lit';
import { until } from '../../test/browser/support.ts';
import { FirstView, firstViewStyles, loadFit } from './first-view.ts';
import { baseStyles } from './styles.ts';

/** The styles of a bare held element: 300 px wide, held to 200 px, its lists without bullets. */
const heldStyles = [
  baseStyles,
  firstViewStyles,
  css`
    :host {
      min-height: 200px;
      width: 300px;
    }
    ul {
      padding: 0;
      list-style: none;
    }
  `,
];

/** A list of items of the given heights (px), held to 200 px. */
class HeldList extends LitElement {
  static override properties = { heights: { attribute: false } };
  static override styles = heldStyles;
  heights: number[] = [];
  #view = new FirstView(this);

  override render() {
    return html`<section part="base">
      ${this.#view.render(
        html`<ul class="fill">
          ${this.heights.map((_, i) => html`<li data-i=${i}>${i}</li>`)}
        </ul>`,
        'Show all',
      )}
    </section>`;
  }

  override updated() {
    for (const li of this.renderRoot.querySelectorAll('li')) li.style.height = `${this.heights[Number(li.dataset.i)]}px`;
  }
}
customElements.define('held-list', HeldList);

/** Days (a heading and a list each, as the calendar's) of items of the given heights, held to 200 px; its button draws `next`. */
class HeldDays extends LitElement {
  static override properties = { days: { attribute: false } };
  static override styles = [
    ...heldStyles,
    css`
      ul,
      h3 {
        margin: 0;
      }
      h3 {
        height: 20px;
      }
    `,
  ];
  days: number[][] = [];
  next: number[][] = [];
  #view = new FirstView(this);

  override render() {
    return html`<section part="base">
      ${this.#view.render(
        html`<button id="next" @click=${() => (this.days = this.next)}>Next</button>
          <div class="fill">
            ${this.days.map(
              (items, d) =>
                html`<h3>Day ${d}</h3>
                  <ul>
                    ${items.map((_, i) => html`<li data-i="${d}.${i}">${d}.${i}</li>`)}
                  </ul>`,
            )}
          </div>`,
        'Show all',
      )}
    </section>`;
  }

  override updated() {
    for (const li of this.renderRoot.querySelectorAll('li')) {
      const [d, i] = li.dataset.i!.split('.').map(Number);
      li.style.height = `${this.days[d!]![i!]}px`;
    }
  }
}
customElements.define('held-days', HeldDays);

/** The headings ("h0") and items ("0.1") the visitor sees, in their order. */
const seen = (el: HeldDays) =>
  [...el.shadowRoot!.querySelectorAll<HTMLElement>('.fill h3, .fill li')]
    .filter((e) => e.getClientRects().length)
    .map((e) => e.dataset.i ?? `h${e.textContent!.replace(/\D/g, '')}`);

/** The items the visitor sees, by their place in the list. */
const shown = (el: HeldList) =>
  [...el.shadowRoot!.querySelectorAll<HTMLElement>('li')]
    .filter((li) => li.getClientRects().length)
    .map((li) => Number(li.dataset.i));

describe('a held first view', () => {
  // First in this file (its own page): the fitting's chunk has not been asked for yet.
  it('asks for its fitting again after the chunk failed to come (a network that failed once)', async () => {
    const failed = loadFit(Promise.reject(new TypeError('Failed to fetch')));
    let error: unknown;
    await failed.catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('Failed to fetch');
    const { fit } = await loadFit();
    expect(fit).to.be.a('function');
  });

  it('shows its first items in their order, never one that an update added after an item taken out', async () => {
    const el = await fixture<HeldList>(html`<held-list .heights=${[50, 50, 150]}></held-list>`);
    await until(() => shown(el).join() === '0,1', 'the third item taken out');
    expect(el.getBoundingClientRect().height, 'the reservation kept').to.equal(200);
    const more = el.shadowRoot!.querySelector<HTMLElement>('.more')!;
    expect(more.hidden, '"Show all" shown').to.equal(false);
    // A small item added at the end would fit in what the third left free: it goes with the third
    // (the calendar's "More classes", when its chunk came after the first fitting, stood alone
    // below the classes kept, with its focus ring cut by the list's foot).
    el.heights = [50, 50, 150, 20];
    await el.updateComplete;
    await until(() => !!el.shadowRoot!.querySelector('li[data-i="3"][data-cut]'), 'the added item taken out with the third');
    expect(shown(el)).to.deep.equal([0, 1]);
    expect(el.getBoundingClientRect().height).to.equal(200);
    await expect(el).to.be.accessible();
    more.querySelector('button')!.click();
    await until(() => shown(el).length === 4, 'every item shown on "Show all"');
  });

  it('keeps a day’s heading with its first item when even that does not fit, and grows by what it lacks', async () => {
    const el = await fixture<HeldDays>(html`<held-days .days=${[[300, 50], [50]]}></held-days>`);
    await until(() => seen(el).join() === 'h0,0.0', 'the first day with its first item only');
    expect(el.getBoundingClientRect().height, 'grown by what the first item lacks').to.be.above(300);
    expect(el.shadowRoot!.querySelector<HTMLElement>('.more')!.hidden, '"Show all" shown').to.equal(false);
  });

  it('grows with what the visitor’s act draws, though the act’s own handler draws it at once', async () => {
    const el = await fixture<HeldDays>(html`<held-days .days=${[[40], [40], [40]]}></held-days>`);
    await until(() => seen(el).join() === 'h0,0.0', 'the days after the first taken out');
    // A real key press: the update the button's handler asks for runs before the event reaches the host.
    el.next = [[40, 40, 40, 40]];
    el.shadowRoot!.querySelector<HTMLElement>('#next')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => seen(el).join() === 'h0,0.0,0.1,0.2,0.3', 'the new day shown whole');
    expect(el.getBoundingClientRect().height, 'grown').to.be.above(200);
    expect(el.shadowRoot!.querySelector<HTMLElement>('.more')!.hidden, 'nothing out').to.equal(true);
  });

  it('keeps out, once grown, what follows the first item out, and never skips a day', async () => {
    const el = await fixture<HeldDays>(html`<held-days .days=${[[40], [40], [40]]}></held-days>`);
    await until(() => seen(el).join() === 'h0,0.0', 'the days after the first taken out');
    // Drawn in the elements of the days before: the second and third days' were out, the fourth's are new.
    el.next = [[40], [40], [40], [40]];
    el.shadowRoot!.querySelector<HTMLElement>('#next')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(
      () => el.shadowRoot!.querySelectorAll('h3').length === 4 && seen(el).join() === 'h0,0.0',
      'the days after the first out (not the fourth shown after the second and third)',
    );
    const more = el.shadowRoot!.querySelector<HTMLElement>('.more')!;
    expect(more.hidden, '"Show all" shown').to.equal(false);
    await expect(el).to.be.accessible();
    more.querySelector('button')!.click();
    await until(() => seen(el).length === 8, 'every day on "Show all"');
  });

  it('moves nothing above its list once the visitor acts and it holds less than its space', async () => {
    const el = await fixture<HeldDays>(html`<held-days .days=${[[40], [40], [40]]}></held-days>`);
    await until(() => seen(el).join() === 'h0,0.0', 'the days after the first taken out');
    const next = el.shadowRoot!.querySelector<HTMLElement>('#next')!;
    const before = next.getBoundingClientRect();
    el.next = [[20]];
    next.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => seen(el).join() === 'h0,0.0' && !el.shadowRoot!.querySelector('.first'), 'one short day, grown');
    const after = next.getBoundingClientRect();
    // (A grid's rows shared the space left: the button grew and the list moved down.)
    expect([after.top, after.height]).to.deep.equal([before.top, before.height]);
    expect(el.getBoundingClientRect().height, 'the space kept').to.equal(200);
  });
});
