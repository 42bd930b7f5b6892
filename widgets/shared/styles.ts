import { css } from 'lit';

/**
 * Styles shared by every widget. A widget inherits the host page's font and text colour (and
 * nothing else of its text's look) and draws its surfaces from `currentColor`, so it sits in light
 * and dark pages alike. The few public custom
 * properties (`--service-*`) feed private ones (`--_*`). Text and focus rings in the default accent
 * and danger colours are mixed with the page's text colour: darker on light pages, lighter on dark
 * ones, so they keep their contrast on both, on the page and on a notice's tint (`--_subtle`): at
 * 60 % a link in a notice on a dark page had 4.36:1 (a colour the site owner sets is used as it is).
 */
export const baseStyles = css`
  :host {
    --_accent: var(--service-accent, #1d4ed8);
    --_link: var(--service-accent, color-mix(in srgb, #1d4ed8 50%, currentColor));
    --_border: var(--service-border, #767d89);
    --_danger: var(--service-danger, color-mix(in srgb, #b3261e 50%, currentColor));
    --_radius: var(--service-radius, 8px);
    --_subtle: color-mix(in srgb, currentColor 7%, transparent);
    display: block;
    line-height: 1.5;
    /* The page's font and colour are the widget's; not the rest of what its text inherits
       (a centred, uppercase or letter-spaced body). */
    text-align: start;
    text-indent: 0;
    text-transform: none;
    letter-spacing: normal;
    word-spacing: normal;
    white-space: normal;
    text-shadow: none;
    /* A long email address or word breaks rather than overflow a phone's width. */
    overflow-wrap: anywhere;
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  h2,
  h3,
  p,
  ul {
    margin: 0;
  }
  h2 {
    font-size: 1.25em;
    line-height: 1.3;
  }
  /* A phone of 360 px and less: a heading of one line where it can ("Your account at Acme Academy"),
     so that the first view keeps to the space reserved for it. */
  @media (width <= 22.5em) {
    h2 {
      font-size: 1.125em;
    }
  }
  ul {
    list-style: none;
    padding: 0;
  }
  button,
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }
  input:not([type='checkbox']),
  select,
  textarea {
    width: 100%;
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: none;
  }
  [part='base'] {
    display: grid;
    gap: 1rem;
  }
  button {
    cursor: pointer;
    min-height: 2.75rem;
    padding: 0.5rem 1rem;
    border-radius: var(--_radius);
    border: 1px solid var(--_accent);
    background: var(--_accent);
    color: var(--service-on-accent, #fff);
    font-weight: 600;
  }
  .secondary {
    background: none;
    color: var(--_link);
  }
  .link {
    min-height: auto;
    padding: 0;
    border: 0;
    background: none;
    color: var(--_link);
    text-decoration: underline;
    font-weight: 400;
  }
  button:disabled {
    cursor: progress;
    opacity: 0.7;
  }
  :focus-visible {
    outline: 3px solid var(--_link);
    outline-offset: 2px;
  }
  /* A filled button's ring is inside it, in its text's colour: its fill is known, the page around it
     is not (the link colour mixed with its white text's, which was 2.9:1 on a light page). */
  button:not(.secondary, .link):focus-visible {
    outline-color: var(--service-on-accent, #fff);
    outline-offset: -5px;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .notice {
    padding: 0.75rem 1rem;
    border-radius: var(--_radius);
    background: var(--_subtle);
  }
  .error {
    color: var(--_danger);
  }
  .skeleton {
    height: 7rem;
    border-radius: var(--_radius);
    background: var(--_subtle);
  }
  /* An error looks the same in every widget and state: lines of text in the page's own look, as the
     loader's own line beside a placeholder that failed. */
  .failed {
    display: grid;
    gap: 0.5rem;
  }
`;
