/**
 * A widget's first view held to the space reserved for it (its own min-height, which the loader
 * hands it: contract/page.ts, `WidgetElement`), so that nothing below the widget moves when it
 * shows: the part marked `.fill` shows what fits, faded at its end, and a button shows the rest.
 * Opening the rest is the visitor's doing, which is no layout shift. Without a reservation (no
 * loader, no min-height) the view shows everything.
 */
import { css, html, nothing, type LitElement, type ReactiveController, type TemplateResult } from 'lit';

/**
 * The first view, as a controller of its widget: `render()` draws it, and after each update the view
 * takes the reserved height and its button shows if anything is cut.
 */
export class FirstView implements ReactiveController {
  /** The visitor asked for everything, or did what shows more: the view is no longer held. */
  all?: boolean;
  #host: LitElement;

  constructor(host: LitElement) {
    (this.#host = host).addController(this);
  }

  /**
   * The view: `content` holds a `.fill` element that gives way; the button says `label`, shows
   * everything, and then calls `shown` if given.
   */
  render(content: TemplateResult, label: unknown, shown?: () => void) {
    const host = this.#host;
    // Held only where there is a reservation: the host's own min-height (NaN or 0 without one).
    const first = !this.all && parseFloat(getComputedStyle(host).minHeight);
    const all = () => {
      this.all = true;
      host.requestUpdate();
      shown?.();
    };
    return html`<div class="view ${first ? 'first' : ''}">
      ${content}
      ${first ? html`<p class="more" hidden><button class="secondary" @click=${all}>${label}</button></p>` : nothing}
    </div>`;
  }

  hostUpdated() {
    const host = this.#host;
    const view = host.renderRoot.querySelector<HTMLElement>('.view');
    if (!view) return;
    const more = view.querySelector<HTMLElement>('.more');
    view.style.height = more ? getComputedStyle(host).minHeight : '';
    if (more) {
      const fill = view.querySelector('.fill')!;
      more.hidden = fill.scrollHeight <= fill.clientHeight;
    }
  }
}

export const firstViewStyles = css`
  .view {
    display: grid;
    gap: 1rem;
  }
  .first {
    display: flex;
    flex-direction: column;
  }
  .first .fill {
    flex: 1 1 0;
    min-height: 0;
    overflow: hidden;
  }
  .first:has(.more:not([hidden])) .fill {
    mask-image: linear-gradient(#000 calc(100% - 3rem), transparent);
  }
`;
