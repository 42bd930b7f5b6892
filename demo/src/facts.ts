/** What the custom-elements manifest says of each built widget, put here by the build (site.config.ts). */
import type { Facts } from './showcase.ts';

declare const __WIDGETS__: Facts;

export const FACTS: Facts = __WIDGETS__;
