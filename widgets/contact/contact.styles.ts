import { css } from 'lit';

/**
 * The form fills the space reserved for it (its host's min-height: the loader hands it the div's,
 * contract/page.ts): the message box takes what the other fields leave, so that the first view is as
 * tall as the reservation at any width.
 */
export const contactStyles = css`
  [part='base'] {
    min-height: inherit;
  }
  [part='base'],
  form,
  .field:has(textarea) {
    display: flex;
    flex-direction: column;
  }
  form,
  .field:has(textarea),
  textarea {
    flex: 1;
  }
  #message-hint {
    align-self: end;
  }
  /* As wide as its words, as in every form (a column's item stretches). */
  form > button {
    align-self: start;
  }
`;
