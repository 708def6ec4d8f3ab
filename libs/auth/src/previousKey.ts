// A caller still on a service key a reset replaced (within its grace): told which key is current
// and until when its own works, and counted, so operators see when the last such caller moved on.
import { Counter, type Registry } from '@idv/observability';
import type { Response } from 'express';
import type { Credentials } from './credentials.ts';

/** Response header naming the current service public key (only to callers on a previous key). */
export const CURRENT_KEY_HEADER = 'Service-Key-Current';
/** Response header: when the previous key the caller used stops being accepted (ISO 8601). */
export const ACCEPTED_UNTIL_HEADER = 'Service-Key-Accepted-Until';

/** Marks the answer and counts the request when the caller used a previous key. */
export function previousKeyNotice(registry?: Registry): (res: Response, c: Credentials) => void {
  const counter =
    registry &&
    new Counter({
      name: 'auth_previous_service_key_total',
      help: 'requests made with a previous service key during its grace after a reset',
      registers: [registry],
    });
  return (res, credentials) => {
    if (!credentials.previousKeyAcceptedUntil) return;
    counter?.inc();
    res.set(CURRENT_KEY_HEADER, credentials.currentServicePublicKey);
    res.set(ACCEPTED_UNTIL_HEADER, credentials.previousKeyAcceptedUntil.toISOString());
  };
}
