import { css } from 'lit';

/** The details' and the confirmation's styles, adopted with the steps' chunk (the cart's first render needs none of them). */
export const stepsStyles = css`
  fieldset {
    display: grid;
    gap: 1rem;
    margin: 0;
    padding: 0;
    border: 0;
  }
  legend {
    padding: 0;
    margin-bottom: 0.5rem;
    font-weight: 600;
  }
  .done {
    display: grid;
    gap: 0.75rem;
  }
  /* Held to the reserved space, the confirmation's classes give way (the rest on asking). */
  .first .done {
    display: flex;
    flex-direction: column;
    flex: 1 1 0;
    min-height: 0;
  }
`;
