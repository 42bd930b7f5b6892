import { css } from 'lit';

export const calendarStyles = css`
  .bar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: end;
  }
  .bar h2 {
    flex: 1 1 100%;
  }
  .field {
    display: grid;
    gap: 0.25rem;
    flex: 1 1 12rem;
  }
  label {
    font-weight: 600;
  }
  .views {
    display: flex;
  }
  .views button {
    border-radius: 0;
  }
  .views button:first-child {
    border-radius: var(--_radius) 0 0 var(--_radius);
  }
  .views button:last-child {
    border-radius: 0 var(--_radius) var(--_radius) 0;
  }
  [aria-pressed='true'] {
    background: var(--_accent);
    color: var(--service-on-accent, #fff);
  }
  .nav {
    align-items: center;
  }
  .nav h3 {
    min-width: 10em;
    text-align: center;
  }
  table {
    width: 100%;
    table-layout: fixed;
    border-collapse: collapse;
  }
  th {
    font-size: 0.875rem;
    font-weight: 600;
    padding-bottom: 0.25rem;
  }
  td {
    height: 3.5rem;
    padding: 0.25rem;
    vertical-align: top;
    border: 1px solid var(--_subtle);
    overflow: hidden;
    cursor: pointer;
  }
  td:empty {
    cursor: default;
  }
  td span {
    display: block;
  }
  .title {
    font-size: 0.75rem;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
    border-radius: 4px;
    padding: 0 0.25rem;
    background: var(--_subtle);
  }
  .title + .title {
    margin-top: 2px;
  }
  [aria-current='date'] > span:first-child {
    font-weight: 700;
    text-decoration: underline;
  }
  [aria-selected='true'] {
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  td:focus-visible {
    outline: 3px solid var(--_link);
    outline-offset: -3px;
  }
  .fill {
    display: grid;
    gap: 0.75rem;
    align-content: start;
  }
  .classes {
    display: grid;
    gap: 0.75rem;
  }
  .class {
    display: grid;
    gap: 0.25rem;
    padding: 0.75rem 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .class button {
    justify-self: start;
  }
  .seats.waitlist,
  .seats.full {
    color: var(--_danger);
  }
  .in-cart {
    font-weight: 600;
  }
`;
