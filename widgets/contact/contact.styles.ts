import { css } from 'lit';

export const contactStyles = css`
  [part='base'],
  form,
  .field {
    display: grid;
    gap: 1rem;
  }
  .field {
    gap: 0.25rem;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 1rem;
  }
  .row > * {
    flex: 1 1 12rem;
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
    font: inherit;
    color: inherit;
  }
  textarea {
    resize: vertical;
  }
  [aria-invalid='true'] {
    border-color: var(--_danger) !important;
  }
  label {
    font-weight: 600;
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
  .field-error,
  .count {
    font-size: 0.875rem;
  }
  .count {
    justify-self: end;
  }
  .skeleton {
    height: 8rem;
  }
`;
