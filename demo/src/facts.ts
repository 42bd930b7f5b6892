/** What the custom-elements manifest says of each built widget, put here by the build (site.config.ts). */
import type { Facts, Pinned } from './showcase.ts';

declare const __WIDGETS__: Facts;
declare const __PINNED__: Pinned;

export const FACTS: Facts = __WIDGETS__;
/** This release's pinned loaders and their integrity lists, put here by the build too. */
export const PINNED: Pinned = __PINNED__;
