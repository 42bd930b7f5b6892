import { css } from 'lit';

/**
 * The player's bar of controls (below the picture, in the poster's room), its full-screen view, and
 * the sign-in below a poster (its steps' own styles come with them: form.ts, sign-in.ts): adopted
 * with the player's chunk, so that a page that never plays a video never loads them.
 */
export const playerStyles = css`
  .player:fullscreen {
    display: flex;
    flex-direction: column;
    justify-content: center;
    background: #000;
    color: #fff;
  }
  .player:fullscreen .screen,
  .player:fullscreen video {
    flex: 1;
    min-height: 0;
    height: 100%;
  }
  .bar {
    display: flex;
    align-items: center;
    gap: 0.25rem;
    min-height: 2.75rem;
    height: 2.75rem;
    padding: 0 0.25rem;
    font-size: 0.875rem;
    overflow: hidden;
  }
  .controls .icon {
    flex: none;
    width: 2.75rem;
    min-height: 2.25rem;
    height: 2.25rem;
    padding: 0;
    display: grid;
    place-items: center;
    background: none;
    color: inherit;
    border-color: transparent;
  }
  .controls [aria-pressed='true'] {
    border-color: currentColor;
  }
  /* The rings inside the controls: the player's box clips what lies beyond its edges. */
  .controls :focus-visible,
  .controls .icon:focus-visible {
    outline-color: var(--_link);
    outline-offset: -3px;
  }
  .controls input {
    min-height: 0;
    height: 1.5rem;
    padding: 0;
    border: 0;
    accent-color: var(--_accent);
  }
  .seek {
    flex: 1;
    min-width: 4rem;
  }
  .volume {
    flex: 0 1 5rem;
    min-width: 3rem;
  }
  /* The captions' choice gives way (its name cut short) before a control is pushed out of the bar. */
  .controls select {
    flex: 0 1 7rem;
    min-width: 0;
    min-height: 2.25rem;
    width: auto;
    padding: 0 0.25rem;
  }
  .time {
    white-space: nowrap;
  }
  @container (width < 26em) {
    .time,
    .volume {
      display: none;
    }
  }
  .i-play,
  .i-pause,
  .i-sound,
  .i-muted,
  .i-full {
    display: grid;
    place-items: center;
    width: 1.25rem;
    height: 1.25rem;
  }
  .i-play::after {
    content: '';
    width: 0.9em;
    height: 1em;
    background: currentColor;
    clip-path: polygon(0 0, 100% 50%, 0 100%);
    margin-left: 0.2em;
  }
  .i-pause {
    border-inline: 0.35rem solid currentColor;
    width: 1rem;
    height: 1rem;
  }
  .i-sound::after,
  .i-muted::after {
    content: '';
    width: 1rem;
    height: 1rem;
    background: currentColor;
    clip-path: polygon(0 30%, 35% 30%, 75% 0, 75% 100%, 35% 70%, 0 70%);
  }
  .i-muted {
    background: linear-gradient(45deg, transparent 45%, currentColor 45% 55%, transparent 55%);
  }
  .i-full {
    width: 1rem;
    height: 1rem;
    border: 2px dashed currentColor;
  }
  .sign-in {
    display: grid;
    gap: 0.75rem;
    max-width: 30em;
    padding: 0.75rem 1rem 1rem;
    border-radius: var(--_radius);
    background: var(--_subtle);
  }
  .one .sign-in {
    max-width: 25em;
  }
`;
