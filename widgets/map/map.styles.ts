import { css } from 'lit';

/**
 * The widget fills the space reserved for it (its host's min-height: the loader hands it the div's,
 * contract/page.ts): the heading, then
 * the map and the list side by side where there is room (the list scrolls within its part), the map
 * above the list where there is not (a smaller map, and the whole places that fit: first-view.ts),
 * until the visitor acts in the widget: stacked, the map then grows to a height its popups fit in,
 * and the list shows below it. The map's box is there from the first render, empty until
 * Leaflet draws in it, so that nothing moves. Leaflet's own CSS, and that of the markers, popups and
 * attribution, comes with the map (map-leaflet.ts).
 */
export const mapStyles = css`
  [part='base'],
  .view {
    display: flex;
    flex-direction: column;
  }
  [part='base'] {
    min-height: inherit;
    container-type: inline-size;
  }
  .view {
    flex: 1 1 auto;
  }
  h3 {
    font-size: 1rem;
  }
  .body {
    flex: 1 1 0;
    min-height: 20em;
    display: grid;
    grid-template-rows: 11em minmax(0, 1fr);
    gap: 1rem;
  }
  @container (width >= 40em) {
    .body {
      grid-template-rows: minmax(0, 1fr);
      grid-template-columns: minmax(0, 3fr) minmax(16em, 2fr);
    }
  }
  /* Stacked, in the first view: a smaller map, so that a whole place fits below it (German too; a
     sans-serif page's place of two lines at 343 px, a phone's width less its margins, was 6 px over at 9em). */
  @container (width < 40em) {
    .first .body {
      grid-template-rows: 8em minmax(0, 1fr);
    }
  }
  /* Stacked, once the visitor acts: a map its popups fit in, and the whole list below it. */
  @container (width < 40em) {
    .grown {
      flex: none;
      grid-template-rows: 24em auto;
    }
    .grown .places {
      overflow: visible;
    }
  }
  .map-box {
    position: relative;
    min-height: 0;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
    background: var(--_subtle);
  }
  .map {
    height: 100%;
    font: inherit;
  }
  .failed-line {
    position: absolute;
    inset: 0.5rem 0.5rem auto 3.5rem;
    z-index: 1000;
    background: Canvas;
    color: CanvasText;
    border: 1px solid var(--_border);
    font-size: 0.875rem;
  }
  .places {
    display: grid;
    gap: 0.75rem;
    align-content: start;
    overflow: auto;
    min-height: 0;
    padding: 2px;
  }
  .place {
    display: grid;
    gap: 0.25rem;
    padding: 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .place.selected {
    outline: 3px solid var(--_link);
    outline-offset: -3px;
  }
  .classes {
    display: grid;
    gap: 0.25rem;
    font-size: 0.875rem;
  }
  .classes li {
    display: flex;
    flex-wrap: wrap;
    gap: 0 0.75rem;
    align-items: baseline;
    padding-top: 0.25rem;
    border-top: 1px solid var(--_subtle);
  }
  .course {
    font-weight: 600;
  }
  .seats.waitlist,
  .seats.full {
    color: var(--_danger);
  }
  /* Brought into the list's view by the focus with room for its ring. */
  .places :is(a, button) {
    scroll-margin: 0.5rem;
  }
  /* A class's links and buttons (Book, Go to checkout) are targets of a line of 24 px, not of their small words. */
  .classes :is(a, button) {
    min-height: 1.5rem;
  }
  .book {
    color: var(--_link);
    font-weight: 600;
  }
  .show {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
    min-height: 2.25rem;
    padding: 0.25rem 0.75rem;
    text-align: start;
  }
  /* The map's pin, small. */
  .show::before {
    content: '';
    flex: none;
    width: 0.625rem;
    height: 0.625rem;
    margin: 0 0.125rem 0.25rem;
    rotate: -45deg;
    border-radius: 50% 50% 50% 0;
    background: currentColor;
  }
`;
