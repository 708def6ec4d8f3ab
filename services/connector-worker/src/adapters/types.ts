// The one shape every connector adapter has: provider call in, normalised result and raw answer out.
import type { NormalisedResult, VerificationKind } from '@idv/contracts';
import type { AxiosInstance } from 'axios';
import type { LookupFunction } from 'node:net';

export interface AdapterInput {
  kind: VerificationKind;
  connectorUrl: string;
  config: Record<string, unknown>; // validated against CONFIG_BY_CONNECTOR[type]
  document: Record<string, unknown>; // the /verify request's document
  http: AxiosInstance; // keep-alive, timeout set; adapters use it for provider calls
  signal: AbortSignal; // aborted when the breaker times the call out
  /** the SSRF-guarded DNS lookup, for adapters that open sockets of their own (mTLS agents) */
  lookup?: LookupFunction;
  /** a client certificate of the job's community from the operator's directory, by file name */
  clientCertificate?: (name: string) => Promise<Buffer>;
}
export interface AdapterOutput {
  result: NormalisedResult;
  raw: unknown;
}
export type Adapter = (input: AdapterInput) => Promise<AdapterOutput>;
/** The verifier's config cannot be used here (a certificate that is not there): a refusal, never
 *  a provider failure, so it neither trips the breaker nor hands over to the next verifier. */
export class ConfigRefused extends Error {
  override readonly name = 'ConfigRefused';
  readonly code = 'invalid_config';
}
/** Thrown for a provider 4xx / refused input: not a provider failure, outcome invalid_request. */
export class ProviderRejected extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderRejected';
  }
}
