import { css } from 'lit';

export const registrationStyles = css`
  :host {
    container-type: inline-size;
  }
  .course {
    display: grid;
    gap: 1rem;
  }
  .row,
  .class,
  .facts {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
    align-items: center;
    justify-content: space-between;
  }
  .row > * {
    flex: 1 1 12rem;
  }
  .courses {
    display: grid;
    gap: 1rem;
    align-content: start;
  }
  .course {
    gap: 0.5rem;
    padding: 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .class {
    padding-top: 0.5rem;
    border-top: 1px solid var(--_subtle);
  }
  /* A class: its date (on a line of its own where narrow), place, price, seats and the button, which
     keeps to the end of the last line (at 375 px the seats wrap beside it rather than push it below). */
  .facts {
    display: contents;
  }
  .class {
    justify-content: start;
  }
  .seats {
    flex: 1 1 7rem;
  }
  /* Two lines of a programme's description at most: its card and a booking button fit the first view. */
  .course > p {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    overflow: hidden;
  }
  @container (width < 40rem) {
    .when {
      flex-basis: 100%;
    }
  }
  @container (width < 30rem) {
    .course {
      padding: 0.75rem;
    }
  }
  /* 288 px (a phone of 320): one line of it, and less room between the parts, so that a card of a
     date and seats of two lines each (in German, in a sans-serif font) keeps to the first view's space. */
  @container (width < 20rem) {
    .course > p {
      -webkit-line-clamp: 1;
    }
    .view {
      gap: 0.75rem;
    }
    .course {
      gap: 0.375rem;
    }
  }
  .when,
  label {
    font-weight: 600;
  }
  .seats.waitlist,
  .low {
    color: var(--_danger);
  }
`;
