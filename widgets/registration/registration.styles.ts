import { css } from 'lit';

export const registrationStyles = css`
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
