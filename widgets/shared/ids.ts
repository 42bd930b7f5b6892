/** A random id for idempotency keys. The loader mounts widgets only in secure contexts, where `randomUUID` exists. */
export const newId = (): string => crypto.randomUUID();
