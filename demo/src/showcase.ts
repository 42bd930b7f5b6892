/**
 * The gallery: each widget with the seeded key that shows it, a title and what to try. The build
 * writes the gallery's page from this (site.config.ts); the pages' scripts read it too.
 */
import type { WidgetType } from '../../contract/index.ts';

/** What the custom-elements manifest says of a widget (the build hands it to the pages as `__WIDGETS__`). */
export interface WidgetFacts {
  summary: string;
  events: { name: string; description: string }[];
  cssProperties: { name: string; default: string; description: string }[];
}
export type Facts = Partial<Record<WidgetType, WidgetFacts>>;

/**
 * This release's pinned loaders (docs/embedding.md, "Pinned versions"), as the build wrote them: per
 * loader version, its path under `/widgets/`, its SRI hash, and its integrity list (`files`, paths
 * relative to the loader's folder; `widgets`, per type the files it may load).
 */
export interface Pinned {
  release: string;
  loaders: Record<number, { path: string; integrity: string; files: Record<string, string>; widgets: Record<string, string[]> }>;
}

export interface Showcase {
  type: WidgetType;
  title: string;
  /** The seeded key of Acme Academy's widget of this type. */
  key: string;
  /** What a visitor may try, and where to see the result. Plain text; `{outbox}` becomes a link to the outbox. */
  tryIt: string;
  /** Options of the snippet (contract `OPTIONS`, by their element attribute's name). */
  options?: Record<string, string>;
}

export const SHOWCASE: Showcase[] = [
  {
    type: 'registration',
    title: 'Registration',
    key: 'wk_demo_registration',
    tryIt: 'Register for a class: the confirmation email arrives in the {outbox}. A full class offers its waitlist.',
  },
  {
    type: 'calendar',
    title: 'Calendar',
    key: 'wk_demo_calendar',
    tryIt: 'Book a class: it goes into the checkout below. Arrow keys move through the month.',
  },
  {
    type: 'checkout',
    title: 'Checkout',
    key: 'wk_demo_checkout',
    options: { classes: 'cls_web_1' },
    tryIt:
      'A class is in the cart already (its data-service-class), and the calendar adds more. The voucher WELCOME10 takes 10 % off; a card is paid on a fake provider’s page.',
  },
  {
    type: 'profile',
    title: 'Participant account',
    key: 'wk_demo_profile',
    tryIt:
      'Sign in as ada@example.org: the PIN and the sign-in link are in the {outbox}. Your classes and orders show once signed in.',
  },
  {
    type: 'contact',
    title: 'Contact form',
    key: 'wk_demo_contact',
    tryIt:
      'Send a message: it reaches Acme Academy as an email in the {outbox}. No captcha: the service checks a signed form token.',
  },
  {
    type: 'video',
    title: 'Course videos',
    key: 'wk_demo_video',
    tryIt:
      'Play a video: the player loads only now, with captions and keyboard controls. The members’ video asks you to sign in first.',
  },
  {
    type: 'map',
    title: 'Places',
    key: 'wk_demo_map',
    tryIt: 'Choose a place in the list or on the map: each shows its next classes and a link to book.',
  },
];

/** The pages of the demo, in the order of its navigation. */
export const PAGES = [
  { file: 'index.html', href: '/', title: 'Widgets' },
  { file: 'builder.html', href: '/demo/builder.html', title: 'Snippet builder' },
  { file: 'checker.html', href: '/demo/checker.html', title: 'Snippet checker' },
  { file: 'console.html', href: '/demo/console.html', title: 'REST console' },
  { file: 'outbox.html', href: '/demo/outbox.html', title: 'Outbox' },
  { file: 'hostile.html', href: '/demo/hostile.html', title: 'Hostile page' },
  { file: 'dark.html', href: '/demo/dark.html', title: 'Dark page' },
  // The service's app (app/), a page of its own: never the current page of the demo.
  { file: 'app', href: '/app/', title: 'App' },
] as const;
