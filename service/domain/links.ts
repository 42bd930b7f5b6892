/**
 * Where the service's APIs live and the links it builds. Every link starts from the configured
 * public URL (or from a page the application or the widget key names), never from a request's Host.
 */

/** The widget API's path under the service's URL. */
export const WIDGET_API_PREFIX = '/widget-api/v1';

/** The link to the `.ics` file of some classes (an order's `calendar_url`, its email). */
export function calendarFileUrl(publicUrl: string, widgetKey: string, classIds: readonly string[]): string {
  const classes = [...new Set(classIds)].map(encodeURIComponent).join(',');
  return `${publicUrl}${WIDGET_API_PREFIX}/calendar.ics?key=${encodeURIComponent(widgetKey)}&classes=${classes}`;
}

/** The page of the (development) payment provider for a payment. */
export const paymentPageUrl = (publicUrl: string, paymentId: string) => `${publicUrl}/dev/pay/${paymentId}`;

/** A page a REST application names for its emailed links: an absolute URL as it is, a path under the public URL. */
export function serviceLink(publicUrl: string, link: string): URL {
  return /^https?:\/\//i.test(link) ? new URL(link) : new URL(`${publicUrl}/${link.replace(/^\/+/, '')}`);
}
