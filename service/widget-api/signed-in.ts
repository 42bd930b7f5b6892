/** The signed-in participant of a widget API call: its `X-Service-Token` (domain/signed-in.ts). */
import { sha256Hex } from '../core/ids.ts';
import { signedInParticipant } from '../domain/signed-in.ts';
import type { ParticipantRow } from '../domain/participants.ts';
import type { WidgetKeyRow } from '../domain/widget-keys.ts';
import type { AppContext, ServiceDeps } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';

/** The participant of the `X-Service-Token`, of the key's company, or 401 `invalid-token`. */
export async function participantOfRequest(deps: ServiceDeps, c: AppContext, key: WidgetKeyRow): Promise<ParticipantRow> {
  const token = c.req.header('x-service-token')?.trim();
  const participant = token ? await signedInParticipant(deps.store, deps.clock.now(), key, sha256Hex(token)) : undefined;
  if (participant) return participant;
  throw new ApiError(
    401,
    'invalid-token',
    token
      ? 'This sign-in is no longer valid (signed out, expired or revoked): sign in again.'
      : 'Sign in first: send the token of the sign-in in the X-Service-Token header.',
  );
}
