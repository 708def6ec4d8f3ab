// The one shape every connector's worker side has: an adapter of its type (provider call in,
// normalised result and raw answer out), made once per worker with what it keeps for the worker's
// life. Adapters throw only the outcomes of ../outcomes.ts (shared/providerCall.ts sorts HTTP
// failures). The config an adapter gets is its own type's, validated against the type's schema.
import type { ConfigOf, ConnectorType, NormalisedResult, VerificationKind } from '@idv/contracts';
import type { AccountKey } from '../provider/accounts.ts';
import type { GuardedHttp } from '@idv/netguard';

export interface AdapterInput<T extends ConnectorType = ConnectorType> {
  kind: VerificationKind;
  connectorUrl: string;
  /** validated against CONFIG_BY_CONNECTOR[T] when the job was opened */
  config: ConfigOf<T>;
  /** the /verify request's document */
  document: Record<string, unknown>;
  /**
   * the job's provider account (verifier, community, connectorUrl, whole config): the key, or the
   * root of the key (within()), of anything the adapter keeps for later jobs
   */
  account: AccountKey;
  /** keep-alive, timeout set, SSRF-guarded: adapters use it for provider calls */
  http: GuardedHttp;
  /** aborted when the provider's timeout or the job's deadline comes */
  signal: AbortSignal;
  /** a client certificate of the job's community from the operator's directory, by file name */
  clientCertificate?: (name: string) => Promise<Buffer>;
  /** present when a "not final yet" answer can be followed up (types with followUps) */
  followUp?: { deadline: number; callbackUrl?: string | undefined };
}

/** What a follow-up of a pending answer needs: the provider's reference, no document. */
export type FollowUpInput<T extends ConnectorType = ConnectorType> = Pick<
  AdapterInput<T>,
  'kind' | 'connectorUrl' | 'config' | 'http' | 'signal'
> & { reference: string };

/**
 * How a type follows up an answer with status 'pending' (result.followUp): the provider asked
 * again, or its callback (authenticated by the gateway) read. Each gives the final result, or one
 * still 'pending'.
 */
export interface FollowUpAdapter<T extends ConnectorType = ConnectorType> {
  poll(input: FollowUpInput<T>): Promise<AdapterOutput>;
  fromCallback(body: unknown, input: Pick<FollowUpInput<T>, 'kind'>): AdapterOutput;
}

export interface AdapterOutput {
  result: NormalisedResult;
  raw: unknown;
  /**
   * A provider call the adapter still makes after its result (deleting the provider's copy of a
   * transaction), made with afterAnswer(): the reply does not wait for it, the verifier's slot does.
   */
  after?: AfterAnswer;
}

/** How a call after the answer ended; it never rejects, so nothing waits on it unhandled. */
export type AfterAnswer = Promise<{ failed?: string }>;

/** Starts nothing: wraps a call already made so that its failure is reported, not thrown. */
export function afterAnswer(call: Promise<unknown>): AfterAnswer {
  return call.then(
    () => ({}),
    (err: unknown) => ({ failed: err instanceof Error ? err.message : String(err) }),
  );
}

export type Adapter<T extends ConnectorType = ConnectorType> = (
  input: AdapterInput<T>,
) => Promise<AdapterOutput>;

/** What an adapter may keep for the worker's life. */
export interface AdapterResources {
  /** the worker's provider client; also makes the mTLS dispatchers and the cloud SDK's agents */
  http: GuardedHttp;
}

/** The adapter of one worker and how to release what it holds. */
export interface RunningAdapter<T extends ConnectorType = ConnectorType> {
  adapter: Adapter<T>;
  followUp?: FollowUpAdapter<T> | undefined;
  close(): Promise<void>;
}

/** The worker side of connector type T, as each connectors/<type>/adapter.ts exports it. */
export interface WorkerConnector<T extends ConnectorType> {
  /** the type it serves: the table of index.ts refuses (tsc) a connector under another type */
  readonly type: T;
  start(resources: AdapterResources): RunningAdapter<T>;
}

/** A connector whose adapter holds nothing: a plain function. */
export function plainConnector<T extends ConnectorType>(
  type: T,
  adapter: Adapter<T>,
  followUp?: FollowUpAdapter<T>,
): WorkerConnector<T> {
  return { type, start: () => ({ adapter, followUp, close: async () => {} }) };
}
