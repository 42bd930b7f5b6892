import { css } from 'lit';

/** The steps' bar (a heading or a line beside its buttons). The signed-in view's own styles come with it (profile-account.styles.ts). */
export const profileStyles = css`
  .bar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
    justify-content: space-between;
  }
`;
