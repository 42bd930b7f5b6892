import { css } from 'lit';

/**
 * The form fills the space reserved for it (its div's min-height, inherited): the message box takes
 * what the other fields leave, so that the first view is as tall as the reservation at any width.
 */
export const contactStyles = css`
  :host,
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
`;
