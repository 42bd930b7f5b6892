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
  /* A payment method's radio beside its label's first line, as large as the consent box (the base
     styles give text inputs their height and padding; a radio takes none of them). */
  .methods input {
    min-height: 0;
    height: 1.5rem;
    margin: 0;
    padding: 0;
  }
  /* A free order's billing address is not asked for (its typing is kept). */
  fieldset[hidden] {
    display: none;
  }
  .done .fill {
    display: grid;
    gap: 1rem;
    align-content: start;
  }
  /* Held to the reserved space, the confirmation's details give way (the rest on asking). */
  .first .done {
    flex: 1 1 0;
    min-height: 0;
  }
`;
