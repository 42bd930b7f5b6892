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
 * the heights of its built types only, beside their chunks.
 */
export const RESERVED_HEIGHT: Record<WidgetType, number> = {
  registration: 420,
  profile: 320,
  contact: 480,
  calendar: 420,
  checkout: 420,
  video: 320,
  map: 320,
};
