import { css } from 'lit';

/** The cart's styles; the later steps' are in their chunk (checkout-steps.styles.ts). */
export const checkoutStyles = css`
  .lines {
    display: grid;
    gap: 1rem;
  }
  .line {
    display: grid;
    gap: 0.25rem;
    padding: 0.75rem 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .seats,
  .voucher {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
  }
  .seats select {
    width: auto;
  }
  .title {
    display: flex;
    gap: 0.75rem;
    justify-content: space-between;
    align-items: baseline;
  }
  .amount {
    margin-left: auto;
    font-weight: 600;
    white-space: nowrap;
  }
  .voucher input {
    flex: 0 1 16rem;
    width: auto;
  }
  [part='button'] {
    justify-self: start;
    align-self: start;
  }
  .voucher p,
  .links .voucher {
    flex: 1 1 100%;
  }
  .links {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
  }
  .links .more {
    margin-inline-start: auto;
  }
  /* A phone of 360 px and less: the links under the lines in one row where they can (a cart's first
     view keeps to its space at 288 px in a sans-serif font). */
  @media (width <= 22.5em) {
    .line {
      padding-inline: 0.75rem;
    }
    .links {
      column-gap: 0.75rem;
    }
  }
  [role='status'] .error {
    margin-bottom: 0.75rem;
  }
  label {
    font-weight: 600;
  }
  .hint {
    font-size: 0.875rem;
  }
  /* Its amounts in one column with the lines' (inside their border and padding). */
  .totals {
    display: grid;
    gap: 0.25rem;
    margin: 0;
    padding: 0 calc(1rem + 1px);
  }
  .totals div {
    display: flex;
    justify-content: space-between;
    gap: 1rem;
  }
  /* An amount never breaks (at its minus, on a narrow phone). */
  dd {
    margin: 0;
    white-space: nowrap;
  }
  .total {
    font-weight: 700;
    font-size: 1.125rem;
  }
  .fill {
    align-content: start;
  }
  .empty {
    display: grid;
    place-content: center;
    text-align: center;
  }
`;
