/**
 * A widget's first view held to the space reserved for it (its own min-height, which the loader
 * hands it: contract/page.ts, `WidgetElement`), so that nothing below the widget moves when it
 * shows: the part marked `.fill` shows the whole items (`li`) that fit, and a button shows the rest.
 * The reservation is a minimum, never a clip: the visitor's first act in the widget (a click, typing)
 * lets the view grow with what they open, and "show all" shows the rest. Without a reservation (no
 * loader, no min-height) the view shows everything.
 */
import { css, html, nothing, type LitElement, type ReactiveController, type TemplateResult } from 'lit';

/**
 * The first view, as a controller of its widget: `render()` draws it, and after each update, while
 * it is held, the items that do not fit whole are taken out (`data-cut`) and its button shows.
 */
export class FirstView implements ReactiveController {
  /** The visitor asked for everything (or chose another view): nothing is taken out. */
  all?: boolean;
  /** The visitor acted in the widget: the view grows with what they open (what was taken out stays out until asked for). */
  grown?: boolean;
  #host: LitElement;

  constructor(host: LitElement) {
    (this.#host = host).addController(this);
    // The visitor acted in the widget: from its next update on, the view grows with what they open
    // (a layout shift right after an input is none: the page moves because the visitor did something).
    // Known before the act's own handlers run (capture): an update they ask for runs as soon as the
    // handler returns, before the event reaches the host (the calendar's next month, already fetched,
    // was drawn held and fitted, and showed a bare day once it grew).
    // Enter or Space is one too where it makes no click (a map's marker opens its popup on Enter).
    const act = (event: Event) => {
      if (!(event instanceof KeyboardEvent) || event.key === 'Enter' || event.key === ' ') this.grown = true;
    };
    for (const type of ['click', 'input', 'keydown']) host.addEventListener(type, act, true);
  }

  /**
   * Held only where there is a reservation: the host's own min-height (NaN or 0 without one). The
   * loader's (`inherit`, in the host's own style) is one without asking for the host's style: asked at
   * each render, it laid out the page anew for each widget (other widgets' container queries make
   * their style wait on layout), 0.5 s on a page of 200 widgets.
   */
  #reserved() {
    const host = this.#host;
    return !this.all && (host.style.minHeight === 'inherit' || !!parseFloat(getComputedStyle(host).minHeight));
  }

  /**
   * The view: `content` holds a `.fill` element whose items give way, and the button (`more()`) at
   * its end, or where `content` puts it (then without `label`).
   */
  render(content: TemplateResult, label?: unknown, shown?: () => void) {
    return html`<div class="view ${this.#reserved() && !this.grown ? 'first' : ''}">${content}${label ? this.more(label, shown) : nothing}</div>`;
  }

  /** The button that says `label`, shows everything, and then calls `shown` if given. */
  more(label: unknown, shown?: () => void) {
    const all = () => {
      this.all = true;
      this.#host.requestUpdate();
      shown?.();
    };
    return this.#reserved() ? html`<p class="more" hidden><button class="link" @click=${all}>${label}</button></p>` : nothing;
  }

  hostUpdated() {
    const view = this.#host.renderRoot.querySelector<HTMLElement>('.view');
    if (!view) return;
    if (!updated.size) requestAnimationFrame(look);
    updated.add(view);
    // After the visitor's act, at once: the focus may go into what it shows.
    if (this.all || this.grown) look();
  }
}

/**
 * The views drawn since the last frame, looked at together before it is painted: a page of many
 * widgets is laid out once for all their measures, not once for each widget's (each measure after a
 * widget's update made the browser lay out the page anew).
 */
const updated = new Set<HTMLElement>();
const look = () => {
  // Only a held view with more than fits, or a view with items taken out or its button shown, has
  // fitting to do: a held one anew (what an update added after the items taken out, the calendar's
  // "More classes" when its chunk comes after the first fitting, goes with them, whenever it came).
  const fitted = [...updated].filter((view) => {
    const fill = view.querySelector<HTMLElement>('.fill');
    return (
      fill &&
      ((view.classList.contains('first') && fill.scrollHeight > fill.clientHeight) ||
        view.querySelector('[data-cut], .more:not([hidden])'))
    );
  });
  updated.clear();
  // (A view taken off the page meanwhile measures nothing over, and nothing is taken out of it.)
  // (Its chunk not come, the views stay cut at their ends.)
  if (fitted.length)
    loadFit().then(
      ({ fit }) => fit(fitted),
      () => {},
    );
};

type Fitting = typeof import('./fit.ts');
/**
 * The fitting of a held view (fit.ts): a chunk of its own, loaded when a view first has more than
 * fits. It is no part of a first render (a view of a few items never loads it; but the checkout's
 * confirmation, below); until it comes, the held view is cut at its end.
 */
let fitting: Promise<Fitting> | undefined;
/**
 * The fitting's chunk, once (asked for again after a failure); `chunk`, its import by a view that
 * will be held and long, asked for ahead with the view's data: the checkout's confirmation, back from
 * the payment page, is fitted in its first frame and nothing in it moves after (its "Show the whole
 * order" came a moment later, and at 320 px moved its actions up by a row).
 */
export const loadFit = (chunk?: Promise<Fitting>) =>
  (fitting ??= (chunk ?? import('./fit.ts')).catch((error: unknown) => {
    fitting = undefined;
    throw error;
  }));

/*
 * Held or not, a column whose list (`.fill`) takes what the space leaves: once the view is no longer
 * held (the visitor typed, booked) nothing else stretches, and nothing above the list moves (a grid's
 * rows shared the space left: the search field moved down as the visitor typed in it).
 */
export const firstViewStyles = css`
  .view {
    display: flex;
    flex-direction: column;
    gap: 1rem;
  }
  section {
    min-height: inherit;
  }
  .fill {
    flex: 1 0 auto;
  }
  .first .fill {
    flex: 1 1 0;
    min-height: 0;
    overflow: hidden;
  }
  .view [data-cut] {
    display: none;
  }
`;
