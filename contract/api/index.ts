/**
 * The types of the APIs' requests and answers, from the schemas of this folder, which the service
 * validates with and documents in /openapi.json. Widgets, the demo and clients take them with
 * `import type` (no schema, and nothing of zod, reaches a bundle):
 *
 *   import type { WidgetResponse, RegistrationRequest } from './index.ts';
 */
export type { ErrorResponse, MessageResponse } from './common.ts';
export type { Class, ClassStatus, Course, CoursesPage, WidgetResponse } from './catalog.ts';
export type { MapTiles, Widget } from './widget-keys.ts';
export type { Video, VideoMedia, VideoMediaResponse } from './videos.ts';
export type { Place, PlaceClass } from './places.ts';
export type { RegistrationRequest, RegistrationResponse } from './registrations.ts';
export type { ContactForm, ContactMessageRequest, ContactMessageResponse } from './contact.ts';
export type {
  CancelResponse,
  EmailChange,
  Participant,
  ParticipantConfirmEmailRequest,
  ParticipantLoginRequest,
  ParticipantMeResponse,
  ParticipantProfileRequest,
  ParticipantRegistration,
  ParticipantResponse,
  ParticipantTokenResponse,
  ParticipantVerifyRequest,
} from './participants.ts';
export type {
  CompanyRole,
  CoursesResponse,
  LoginRequest,
  LoginResponse,
  RestClass,
  Role,
  TokenResponse,
  UserResponse,
  VerifyRequest,
} from './rest.ts';
export type { CalendarClass, CalendarDay, CalendarResponse } from './calendar.ts';
export type {
  Address,
  Attendee,
  Buyer,
  CartItem,
  Order,
  OrderItem,
  OrderLine,
  OrderReadResponse,
  OrderRequest,
  OrderResponse,
  ParticipantOrder,
  PaymentMethod,
  QuoteLine,
  QuoteRequest,
  QuoteResponse,
  VoucherResult,
} from './checkout.ts';
// The development endpoints' answers (the demo reads them).
export type { OutboxResponse, SeedDocument, WidgetKeyCheckResponse, WidgetKeysResponse } from './dev.ts';
