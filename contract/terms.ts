/**
 * The address of a company's terms (a checkout's `options.terms`): an absolute https URL with a host,
 * no user or password, at most 500 characters. The service refuses any other, the app checks it before
 * sending, and the widget links only such an address. A module of its own: the widget's chunk takes
 * this and nothing of the service's schemas.
 */
export const termsUrl = (value: unknown): URL | undefined => {
  if (typeof value !== 'string' || value.length > 500 || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname && !url.username && !url.password ? url : undefined;
};
