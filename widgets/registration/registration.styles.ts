import { css } from 'lit';

export const registrationStyles = css`
  .list,
  .course {
    display: grid;
    gap: 1rem;
  }
  /* The first view, held to its reserved space: the programmes that fit, then the button for all. */
  .first {
    display: flex;
    flex-direction: column;
  }
  .first .courses {
    flex: 1 1 0;
    min-height: 0;
    overflow: hidden;
  }
  .first:has(.more:not([hidden])) .courses {
    mask-image: linear-gradient(#000 calc(100% - 3rem), transparent);
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
  .facts {
    flex: 1 1 18rem;
    justify-content: start;
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
