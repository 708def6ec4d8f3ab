// Credential refusals carry a machine-readable reason, counted in auth_failures_total{reason}.
import { Counter, type Registry } from '@idv/observability';
import { Forbidden, Unauthorized } from '@idv/http';

export type RefusalReason =
  | 'missing_header'
  | 'bad_key'
  | 'undecryptable'
  | 'bad_request_id'
  | 'stale'
  | 'licence_unknown'
  | 'licence_disabled'
  | 'licence_expired'
  | 'replay'
  | 'wrong_request'
  | 'forbidden';

export class CredentialRefused extends Unauthorized {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export class AccessRefused extends Forbidden {
  readonly reason = 'forbidden' as const;
}

/** Counts refusals when given a registry; a no-op otherwise. */
export function refusalCounter(registry?: Registry): (err: unknown) => void {
  if (!registry) return () => undefined;
  const counter = new Counter({
    name: 'auth_failures_total',
    help: 'requests refused by the credential checks, by reason',
    labelNames: ['reason'],
    registers: [registry],
  });
  return (err) => {
    if (err instanceof CredentialRefused || err instanceof AccessRefused)
      counter.inc({ reason: err.reason });
  };
}
