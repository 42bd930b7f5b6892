import { css } from 'lit';

export const contactStyles = css`
  #message-hint {
    justify-self: end;
  }
`;
