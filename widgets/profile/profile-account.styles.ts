import { css } from 'lit';

/** The signed-in view's details, registrations and orders: adopted with its chunk (most visitors are signed out). */
export const accountStyles = css`
  /* A heading or a line beside its buttons. */
  .bar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
    justify-content: space-between;
  }
  /* The announcements' regions, while they say nothing, take no room in the view. */
  .view > [role]:empty {
    position: absolute;
  }
  /* A heading close to its list: the first view's next class fits under "Upcoming classes". */
  .fill > h3 + ul {
    margin-top: -0.75rem;
  }
  .card {
    display: grid;
    gap: 0.25rem;
  }
  .fill {
    display: grid;
    gap: 1rem;
    align-content: start;
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
  /* The question, then its two answers side by side, the one that cancels in the danger colour. */
  .confirm {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .confirm p {
    flex-basis: 100%;
  }
  .danger {
    border-color: var(--service-danger, #b3261e);
    background: var(--service-danger, #b3261e);
  }
`;
