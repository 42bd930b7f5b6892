/** A random id for idempotency keys (`randomUUID` exists only in secure contexts). */
export const newId = (): string => crypto.randomUUID?.() ?? Date.now() + '-' + crypto.getRandomValues(new Uint32Array(2)).join('-');
