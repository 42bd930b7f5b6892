import { css } from 'lit';

export const calendarStyles = css`
  .bar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: end;
  }
  :host {
    container-type: inline-size;
  }
  .bar h2 {
    flex: 1 1 10rem;
  }
  /* Side by side from 21rem (at 304 px, "Alle Programme" was cut in its select): else each a row. */
  .field {
    display: grid;
    gap: 0.25rem;
    flex: 1 1 10rem;
  }
  label {
    font-weight: 600;
  }
  .views {
    display: flex;
    gap: 0.25rem;
  }
  .nav {
    align-items: center;
    gap: 0.5rem;
  }
  .nav h3 {
    min-width: 9em;
    text-align: center;
  }
  .main {
    display: grid;
    gap: 1rem;
    align-items: start;
  }
  .month {
    grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
  }
  @container (width < 45rem) {
    .month {
      grid-template-columns: none;
    }
  }
  .first .main {
    flex: 1 1 0;
    min-height: 0;
    grid-template-rows: minmax(0, 1fr);
  }
  .first .fill {
    height: 100%;
  }
  table {
    width: 100%;
    table-layout: fixed;
    border-collapse: collapse;
  }
  th {
    font-size: 0.875rem;
  }
  td {
    height: 3.5rem;
    padding: 0.25rem;
    vertical-align: top;
    border: 1px solid var(--_subtle);
  }
  td span {
    display: block;
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
  }
  .title {
    font-size: 0.75rem;
    border-radius: 4px;
    background: var(--_subtle);
  }
  [aria-current] {
    font-weight: 700;
  }
  /* A day's focus ring reaches 2px out of its cell, short of the next day's number (a 1px border and
     0.25rem of padding away; the page's 2px gap reached 5px out, onto it at 320px). On the chosen day
     it joins the day's frame: the frame grows 2px outward when the day has the focus. */
  td:focus-visible {
    outline-offset: -1px;
  }
  /* The chosen day is framed inside, in the link colour. */
  [aria-selected='true'] {
    box-shadow: inset 0 0 0 2px var(--_link);
  }
  .fill,
  .classes,
  .class {
    display: grid;
    gap: 0.75rem;
    align-content: start;
  }
  .class {
    gap: 0.25rem;
    padding: 0.75rem 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  h4 {
    margin: 0;
  }
  /* Room for its button's ring in the held list, which clips. */
  .fill .more {
    padding: 0.375rem;
  }
  .further {
    justify-self: center;
    margin-block: 0.375rem;
  }
  .class button {
    justify-self: start;
  }
  .waitlist,
  .full {
    color: var(--_danger);
  }
  /* "Show <next month>" stands on the notice's tint, not on the page the link colour is made for: in
     the text's colour it keeps its contrast (the link colour had 4.36:1 there on the dark demo page). */
  .notice .link {
    color: inherit;
  }
  /* The way to the checkout page: as tall as its line (24 px), as the button to a checkout on the page. */
  .in-cart a {
    display: inline-block;
  }
`;
