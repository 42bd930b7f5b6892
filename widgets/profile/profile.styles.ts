import { css } from 'lit';

export const profileStyles = css`
  .card {
    display: grid;
    gap: 0.25rem;
  }
  .fill {
    display: grid;
    gap: 1rem;
    align-content: start;
  }
  .bar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
    justify-content: space-between;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0 0 0.5rem;
  }
  ul {
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
`;
