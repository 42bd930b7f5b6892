/**
 * The service's own app (`/app/`): a first-party application of no company, which every user of
 * any company signs in to. Its API key is public, a name rather than a secret: the app's tokens are
 * never answered, only set as an HttpOnly cookie (`POST /v1/session`), and every change carries the
 * CSRF cookie's value in `X-CSRF-Token`. Plain constants, without zod: the REST client takes them
 * into browser bundles.
 */
export const APP_API_KEY = 'service-app';
/** Its application id in `GET /v1/user` (no other application has it: theirs start at 1). */
export const APP_APPLICATION_ID = 0;
/** The app's cookies (with the `__Host-` prefix where the service is reached over https). */
export const SESSION_COOKIE = 'service_app_session';
export const CSRF_COOKIE = 'service_app_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';
