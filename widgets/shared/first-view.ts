/**
 * A widget's first view held to the space reserved for it (its div's min-height, which the loader
 * sets and keeps, or the owner's own), so that nothing below the widget moves when it shows: the part
 * marked `.fill` shows what fits, faded at its end, and a button shows the rest. Opening the rest is
 * the visitor's doing, which is no layout shift. Without a reservation (no loader, no min-height) the
 * view shows everything.
 */
import { css, html, nothing, type TemplateResult } from 'lit';

/** The height reserved for the widget's first view: its div's min-height (0 without one). */
export const reservedHeight = (host: HTMLElement) => parseFloat(getComputedStyle(host.parentElement ?? host).minHeight) || 0;

/**
 * The view: `content` holds a `.fill` element that gives way; `held` says whether the view is held
 * to the reservation (the visitor has not asked for all yet); the button says `label` and calls `all`.
 */
export const firstView = (host: HTMLElement, held: boolean, content: TemplateResult, label: unknown, all: () => void) => {
  const first = held && reservedHeight(host) > 0;
  return html`<div class="view ${first ? 'first' : ''}">
    ${content}
    ${first ? html`<p class="more" hidden><button class="secondary" @click=${all}>${label}</button></p>` : nothing}
  </div>`;
};

/** After each render: the view takes the reserved height, and its button shows if anything is cut. */
export const fitFirstView = (root: ParentNode, host: HTMLElement) => {
  const view = root.querySelector<HTMLElement>('.view');
  if (!view) return;
  const more = view.querySelector<HTMLElement>('.more');
  view.style.height = more ? `${reservedHeight(host)}px` : '';
  if (more) {
    const fill = view.querySelector('.fill')!;
    more.hidden = fill.scrollHeight <= fill.clientHeight;
  }
};

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
