import { css } from 'lit';

export const profileStyles = css`
  [part='base'],
  form,
  .field,
  .card {
    display: grid;
    gap: 1rem;
  }
  .field,
  .card {
    gap: 0.25rem;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
    justify-content: space-between;
  }
  .row > .field {
    flex: 1 1 12rem;
  }
  input {
    width: 100%;
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: none;
  }
  [aria-invalid='true'] {
    border-color: var(--_danger);
  }
  label,
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0 0 0.5rem;
  }
  ul {
    list-style: none;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  .card {
    padding: 0.75rem 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .card button {
    justify-self: start;
  }
  .skeleton {
    height: 6rem;
  }
`;
