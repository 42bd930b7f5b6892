import { css } from 'lit';

export const registrationStyles = css`
  [part='base'],
  form,
  .course,
  .field {
    display: grid;
    gap: 1rem;
  }
  .field {
    gap: 0.25rem;
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
  input:not([type='checkbox']) {
    width: 100%;
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: none;
  }
  [aria-invalid='true'] {
    border-color: var(--_danger) !important;
  }
  ul {
    list-style: none;
    padding: 0;
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
  .consent {
    display: flex;
    gap: 0.5rem;
  }
  .consent input {
    width: 1.25rem;
    height: 1.25rem;
    flex: none;
  }
  .consent label {
    font-weight: 400;
  }
  .field-error {
    font-size: 0.875rem;
  }
  .skeleton {
    height: 7.5rem;
  }
`;
