import { css } from 'lit';

/**
 * A poster and its player are one box: the picture at the video's aspect ratio (from the `width`
 * and `height` of the first render, reserved before anything loads) over the player's bar of
 * controls. One video stays within its reserved space at any width (25em wide at most), its poster
 * keeping the bar's room, so that nothing moves when the player takes its place. A list's cards fill
 * columns; where one column is all there is room for (a phone), each card is a row, its poster beside
 * its title, so that the first view shows whole videos. The card playing, or saying why it cannot,
 * takes the row at full size. The player's own styles come with it (video-player.styles.ts).
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
  /* Over a poster of any colours: a white ring inside a black one, within the poster's box, which clips. */
  .play:focus-visible {
    box-shadow: inset 0 0 0 2px #000;
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
  .play span::after {
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
`;
