import { css } from 'lit';

/**
 * A poster and its player are one box: the picture at the video's aspect ratio (from the `width`
 * and `height` of the first render, reserved before anything loads) over the player's bar of
 * controls. One video stays within its reserved space at any width (25em wide at most), its poster
 * keeping the bar's room, so that nothing moves when the player takes its place. A list's cards fill
 * columns; where one column is all there is room for (a phone), each card is a row, its poster beside
 * its title, so that the first view shows whole videos. The card playing, or saying why it cannot,
 * takes the row at full size.
 */
export const videoStyles = css`
  .one {
    display: grid;
    gap: 0.5rem;
  }
  .one .media {
    width: min(100%, 25em);
  }
  .one .poster::after {
    content: '';
    display: block;
    height: 2.75rem;
  }
  h2,
  h3 {
    font-size: 1.125rem;
    line-height: 1.4;
  }
  h3 {
    font-size: 1rem;
  }
  .videos {
    container: videos / inline-size;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(14em, 1fr));
    gap: 1rem;
    align-content: start;
  }
  .card {
    display: grid;
    gap: 0.5rem;
    align-content: start;
  }
  .card.active {
    grid-column: 1 / -1;
  }
  .card.active .media {
    width: min(100%, 48em);
  }
  @container videos (width < 30em) {
    .card:not(.active) {
      grid-template-columns: 40% 1fr;
      grid-template-rows: auto 1fr;
      column-gap: 0.75rem;
    }
    .card:not(.active) .media {
      grid-row: span 2;
      align-self: start;
    }
    .card:not(.active) .play span {
      width: 2.75rem;
      height: 2.75rem;
    }
  }
  .facts {
    display: flex;
    flex-wrap: wrap;
    gap: 0 1rem;
    font-size: 0.875rem;
  }
  .badge {
    font-weight: 600;
  }
  .media {
    container-type: inline-size;
    border-radius: var(--_radius);
    overflow: hidden;
    background: var(--_subtle);
  }
  .screen {
    position: relative;
    background: #000;
  }
  img,
  video {
    display: block;
    width: 100%;
    height: auto;
    object-fit: contain;
  }
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
  .play {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    padding: 0;
    border: 0;
    border-radius: 0;
    background: none;
    display: grid;
    place-items: center;
  }
  .play span {
    width: 3.5rem;
    height: 3.5rem;
    border-radius: 50%;
    background: var(--_accent);
    border: 2px solid var(--service-on-accent, #fff);
    display: grid;
    place-items: center;
  }
  .play span::after,
  .i-play::after {
    content: '';
    width: 0.9em;
    height: 1em;
    background: var(--service-on-accent, #fff);
    clip-path: polygon(0 0, 100% 50%, 0 100%);
    margin-left: 0.2em;
  }
  .held {
    position: absolute;
    inset: 0;
    display: grid;
    place-content: center;
    justify-items: center;
    gap: 0.5rem;
    padding: 0.75rem;
    text-align: center;
    background: color-mix(in srgb, #000 78%, transparent);
    color: #fff;
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
  .controls input {
    min-height: 0;
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
  .controls select {
    flex: 0 1 7rem;
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
    background: currentColor;
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
`;
