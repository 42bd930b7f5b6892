/**
 * The events the host page receives: their names and `detail`. Each is a small class (in the loader
 * or the widget that fires it) and is declared in HTMLElementEventMap below, so that
 * `div.addEventListener('service-registration-created', (e) => e.detail.status)` is typed.
 * All bubble; a widget's own events are also composed (they leave a host's shadow root).
 */
import type { ErrorCode, WidgetType } from './index.ts';

/** `service-widget-ready` and `service-widget-error`, on the placeholder (from the loader). */
export interface WidgetStateDetail {
  type: WidgetType | string;
  code?: ErrorCode;
  /** What is wrong and how to fix it, for the site owner (English). */
  message?: string;
}

/** `service-registration-created`: a registration was made, or the visitor joined a waitlist. */
export interface RegistrationCreatedDetail {
  /** The registration. */
  id: string;
  /** The programme. */
  course: string;
  /** The class. */
  class: string;
  status: 'confirmed' | 'waitlisted';
}

/** `service-registration-cancelled`: a participant cancelled a place in the profile widget. */
export interface RegistrationCancelledDetail {
  id: string;
  course: string;
  class: string;
}

/** `service-profile-login`: a participant signed in (with the PIN or the emailed link). */
export interface ProfileLoginDetail {
  /** The participant. */
  id: string;
}

/** `service-profile-logout`: signed out, by the visitor (here or in another widget of the page) or because the service ended the session. */
export type ProfileLogoutDetail = Record<string, never>;

/** `service-contact-sent`: the service stored a message. */
export interface ContactSentDetail {
  /** The message. */
  id: string;
}

/** `service-class-selected`: the visitor chose a class in the calendar ("Book"); it is in the page's cart. */
export interface ClassSelectedDetail {
  /** The class. */
  class: string;
  /** The programme. */
  course: string;
  /** Its start (ISO 8601, UTC). */
  starts_at: string;
}

/** `service-checkout-completed`: an order was placed (and paid, where it was paid on the provider's page). */
export interface CheckoutCompletedDetail {
  /** The order. */
  id: string;
  /** The order's number, as the buyer quotes it. */
  number: string;
  items: { class: string; course: string; seats: number }[];
  /** What the buyer pays, in minor units (cents). */
  total: { amount: number; currency: string };
}

/** `service-video-started` and `service-video-ended`: the visitor started a video, or watched it to its end. */
export interface VideoDetail {
  /** The video. */
  id: string;
}

/** `service-place-selected`: the visitor chose a place, in the list or on the map. */
export interface PlaceSelectedDetail {
  /** The place. */
  id: string;
}

/**
 * `service-booking-requested`: the visitor chose "Book" for a class at a place (cancelable: a page
 * that opens its own registration calls `preventDefault()` and the link is not followed).
 */
export interface BookingRequestedDetail {
  place: string;
  /** The programme. */
  course: string;
  /** The class. */
  class: string;
}

/** Every event's name and its `detail`. */
export interface ServiceEventDetails {
  'service-widget-ready': WidgetStateDetail;
  'service-widget-error': WidgetStateDetail;
  'service-registration-created': RegistrationCreatedDetail;
  'service-registration-cancelled': RegistrationCancelledDetail;
  'service-profile-login': ProfileLoginDetail;
  'service-profile-logout': ProfileLogoutDetail;
  'service-contact-sent': ContactSentDetail;
  'service-class-selected': ClassSelectedDetail;
  'service-checkout-completed': CheckoutCompletedDetail;
  'service-video-started': VideoDetail;
  'service-video-ended': VideoDetail;
  'service-place-selected': PlaceSelectedDetail;
  'service-booking-requested': BookingRequestedDetail;
}

export type ServiceEventName = keyof ServiceEventDetails;

declare global {
  interface HTMLElementEventMap {
    'service-widget-ready': CustomEvent<WidgetStateDetail>;
    'service-widget-error': CustomEvent<WidgetStateDetail>;
    'service-registration-created': CustomEvent<RegistrationCreatedDetail>;
    'service-registration-cancelled': CustomEvent<RegistrationCancelledDetail>;
    'service-profile-login': CustomEvent<ProfileLoginDetail>;
    'service-profile-logout': CustomEvent<ProfileLogoutDetail>;
    'service-contact-sent': CustomEvent<ContactSentDetail>;
    'service-class-selected': CustomEvent<ClassSelectedDetail>;
    'service-checkout-completed': CustomEvent<CheckoutCompletedDetail>;
    'service-video-started': CustomEvent<VideoDetail>;
    'service-video-ended': CustomEvent<VideoDetail>;
    'service-place-selected': CustomEvent<PlaceSelectedDetail>;
    'service-booking-requested': CustomEvent<BookingRequestedDetail>;
  }
}
