/**
 * The one table of widget types and the loader version each belongs to (a contract: see DESIGN.md).
 * Both loaders, the build and the widgets read it from here.
 */
export const WIDGET_TYPES = {
  registration: 1,
  profile: 1,
  contact: 1,
  calendar: 2,
  checkout: 2,
  video: 2,
  map: 2,
} as const;

export type WidgetType = keyof typeof WIDGET_TYPES;
export type LoaderVersion = (typeof WIDGET_TYPES)[WidgetType];

/**
 * Space (px) a widget reserves while it loads, so nothing below it jumps. The build hands each loader
 * the heights of its built types only, beside their chunks. Measured when ready on the test pages
 * (1280 and 375 px wide): profile signed out 240–264, contact 561–671; registration 260 for one
 * programme, 1,250 for Acme's six, so it reserves a middle that never leaves a large gap.
 */
export const RESERVED_HEIGHT: Record<WidgetType, number> = {
  registration: 420,
  profile: 260,
  contact: 560,
  calendar: 420,
  checkout: 420,
  video: 320,
  map: 320,
};
