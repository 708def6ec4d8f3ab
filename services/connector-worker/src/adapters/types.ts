// The one shape every connector adapter has: provider call in, normalised result and raw answer out.
// Adapters throw only the outcomes of ../outcomes.ts (shared/providerCall.ts sorts HTTP failures).
import type { NormalisedResult, VerificationKind } from '@idv/contracts';
import type { AxiosInstance } from 'axios';
import type { LookupFunction } from 'node:net';

export interface AdapterInput {
  kind: VerificationKind;
  connectorUrl: string;
  config: Record<string, unknown>; // validated against CONFIG_BY_CONNECTOR[type]
  document: Record<string, unknown>; // the /verify request's document
  http: AxiosInstance; // keep-alive, timeout set; adapters use it for provider calls
  signal: AbortSignal; // aborted when the provider's timeout or the job's deadline comes
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
