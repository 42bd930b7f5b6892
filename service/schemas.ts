/**
 * The types of the APIs' requests and answers, from the schemas the service validates with and
 * documents in /openapi.json. Widgets and clients take them with `import type` (nothing of the
 * service reaches a bundle):
 *
 *   import type { WidgetResponse, RegistrationRequest } from '../../service/schemas.ts';
 */
export type { ErrorResponse, MessageResponse } from './http/schema.ts';
export type { Class, ClassStatus, Course, WidgetResponse } from './features/catalog/schema.ts';
export type { MapTiles, Widget } from './features/widget-keys/schema.ts';
export type { Video, VideoMedia, VideoMediaResponse } from './features/videos/schema.ts';
export type { Place, PlaceClass } from './features/places/schema.ts';
export type { RegistrationRequest, RegistrationResponse } from './features/registrations/schema.ts';
export type { ContactForm, ContactMessageRequest, ContactMessageResponse } from './features/contact/schema.ts';
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
} from './features/participants/schema.ts';
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
} from './features/rest/schema.ts';
export type { CalendarClass, CalendarResponse } from './features/calendar/schema.ts';
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
} from './features/checkout/schema.ts';
// The development endpoints' answers (the demo reads them).
export type { OutboxResponse, WidgetKeyCheckResponse, WidgetKeysResponse } from './features/dev/schema.ts';
export type { SeedDocument } from './features/dev/seed-document.ts';
