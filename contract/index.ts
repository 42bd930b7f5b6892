/**
 * The contracts of the embed, in one place: what website owners, marketers and other code rely on
 * (docs/architecture.md, "Contracts"). The loaders, the widgets, the service, the build and the tests
 * read them from here; the loader's bundle keeps only what it uses.
 */

/** Each widget type and the loader version it belongs to. */
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
 * Space (px at a 16 px font) a widget's first view fits in, at 375 and 1280 px wide: the loader
 * reserves it on the div (in em, so that it follows the page's font size) from the start and keeps
 * it, so that nothing below the widget moves (docs/architecture.md, "No layout shift"). What lies
 * beyond the first view opens on the visitor's action.
 */
export const RESERVED_HEIGHT: Record<WidgetType, number> = {
  registration: 420,
  profile: 280,
  contact: 624,
  calendar: 576,
  checkout: 420,
  video: 360,
  map: 420,
};

/**
 * Each widget's first request of the widget API, which the loader starts with the widget's code
 * rather than after it (docs/architecture.md, "No waterfall"): its path under `widget-api/v1/` and its
 * query, where an empty parameter takes the placeholder's option of that name (`data-service-course`)
 * and is left out without one; the loader adds the key. The widget's own first request must be this
 * one (widgets/shared/api.ts takes the loader's answer by its URL); an e2e test counts the requests.
 */
export const FIRST_REQUEST: Record<WidgetType, string> = {
  registration: 'widget?type=registration&course=',
  profile: 'widget?type=profile',
  contact: 'widget?type=contact',
  calendar: 'calendar?course=&location=',
  checkout: 'widget?type=checkout',
  video: 'widget?type=video&video=',
  map: 'widget?type=map',
};

/** The placeholder's attributes. Widget options are further `data-service-*` attributes. */
export const ATTRIBUTES = {
  /** The widget type. */
  type: 'data-service-widget',
  /** The public widget key. */
  key: 'data-service-id',
  /** `en` or `de`. */
  locale: 'data-service-locale',
  /** Set by the loader: `loading`, `ready` or `error`. */
  state: 'data-service-state',
  /** Set by the loader on error: one of ERROR_CODES. */
  error: 'data-service-error',
  /** Marks the line the loader adds to a div that failed. */
  message: 'data-service-message',
} as const;

/** The options each widget takes, as `data-service-<option>` on the placeholder and `<option>` on the element. */
export const OPTIONS: Record<WidgetType, readonly string[]> = {
  registration: ['course'],
  profile: [],
  contact: ['prefill-name', 'prefill-email', 'prefill-subject', 'prefill-topic', 'prefill-message'],
  calendar: ['course', 'location', 'checkout-url'],
  checkout: ['classes'],
  video: ['video'],
  map: ['booking-url'],
};

/**
 * Placeholder attributes whose element attribute has another name: `data-service-id` is the
 * element's `key`, and `data-service-class` the checkout's `classes` (`class` is HTML's own).
 */
export const RENAMED_OPTIONS: Record<string, string> = { id: 'key', class: 'classes' };

/** `data-service-error`, and `detail.code` of `service-widget-error`. */
export const ERROR_CODES = [
  'unknown-type',
  'wrong-loader',
  'missing-key',
  'invalid-key',
  'revoked',
  'type-mismatch',
  'origin-not-allowed',
  'insecure-page',
  'network',
  'script-error',
  'not-available',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The name of the Trusted Types policy the widgets' copy of Lit creates (the build renames Lit's own
 * `lit-html`, which a host page may have created already). A host whose Content-Security-Policy names
 * the policies it allows lists this one.
 */
export const TRUSTED_TYPES_POLICY = 'service-widgets';

export * from './events.ts';
