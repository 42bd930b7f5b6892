/**
 * A page of the owner's site that a widget links to (a calendar's `checkout-url`, a map's
 * `booking-url`): an http(s) address, or one relative to the page the widget is on (`/checkout`,
 * `checkout.html`); not one that begins with `www.` (a host without its `https://`, which a browser
 * reads as a path of the page). The service refuses any other (resolved against a page of its own),
 * the app and the demo's checker say so before, and the widget links only such an address; an
 * address it cannot read is none (`https://`: it threw, and the calendar drew no class). A module of
 * its own: a widget's chunk takes this and nothing of the service's schemas.
 */
export const siteLink = (value: unknown, page = 'https://www.example.com/page/'): URL | undefined => {
  const link = typeof value === 'string' ? value.trim() : '';
  if (!link || /^www\./i.test(link) || !URL.canParse(link, page)) return undefined;
  const url = new URL(link, page);
  return /^https?:$/.test(url.protocol) ? url : undefined;
};
