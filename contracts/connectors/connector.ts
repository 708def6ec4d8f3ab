// What one connector type declares about itself (each file of types/ is one): its verifier config,
// which config members are secrets and which addresses, the kinds it serves, how its worker runs.
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { ConfigArray } from '../http/docverifyConfig.ts';
import type { VerificationKind } from './kinds.ts';

/**
 * The role paths of a config type, as `secrets` and `addresses` name them: `member`,
 * `member/nested`, `list/*\/member` (`*` stands for every item of an array).
 */
export type MemberPath<T> = T extends readonly (infer Item)[]
  ? `*/${MemberPath<Item>}`
  : T extends object
    ? { [K in keyof T & string]-?: K | `${K}/${MemberPath<NonNullable<T[K]>>}` }[keyof T & string]
    : never;

/** How the type's workers are deployed (compose, Kubernetes, the worker's prefetch). */
export interface ConnectorDeployment {
  /** 'io' waits on a provider (hundreds of jobs in flight per worker); 'cpu' computes in the
   *  worker itself (one job per core, more CPU per pod, fewer pods) */
  compute: 'io' | 'cpu';
  /** its workers get the operator's client certificates (CONNECTOR_CERT_DIR) for mutual TLS */
  clientCertificates?: boolean;
  /** jobs waiting per replica before KEDA adds one (default 10): smaller for slow types */
  backlogPerReplica?: number;
}

export interface ConnectorContract<T extends string = string, C extends TObject = TObject> {
  /** the type's name: lower case and `_` (it names queues, services and pods) */
  type: T;
  /** verification kinds it performs; a config naming it for another kind is refused */
  kinds: readonly VerificationKind[];
  /** the verification config's arrays that are no kind (spec 2.4) and may name it */
  configArrays?: readonly Exclude<ConfigArray, VerificationKind>[];
  /** the verifier's `config` (spec 2.3); unknown members are refused */
  config: C;
  /** sealed at rest, read `********` unless the licence is a system licence */
  secrets: readonly MemberPath<Static<C>>[];
  /**
   * The members that, beside connectorUrl, decide where a provider request goes. A change of
   * any of them (or of connectorUrl) needs every secret given again in clear, so stored secrets
   * never follow a new address. Every `format: uri` member must be one (contracts test); the
   * worker's trap test checks that no other member steers a request.
   */
  addresses: readonly MemberPath<Static<C>>[];
  deployment: ConnectorDeployment;
  /**
   * The provider may answer "not final yet" (a review still open): the worker follows such an
   * answer up by polling (its queues `<queue>.followup` and `<queue>.followup.wait.<n>s`), and the
   * provider may call back `POST /connector-callback/{verifierId}`, signed with the config member
   * `callbackSecret` names (HMAC-SHA256, see docs/sessions.md, "Pending outcomes"). `callbackReference` is the
   * member of the callback body holding the provider's reference of the pending answer: it must be
   * the reference the run waits for, so a callback settles only its own run.
   */
  followUps?: { callbackSecret: MemberPath<Static<C>>; callbackReference: string };
}

/** Declares a connector type; the role paths must name members of its config (tsc checks). */
export function defineConnector<const T extends string, C extends TObject>(
  contract: ConnectorContract<T, C>,
): ConnectorContract<T, C> {
  return contract;
}

/** Building blocks of the config schemas. */
export const str = (description?: string) => Type.String(description ? { description } : {});
export const opt = <S extends TSchema>(schema: S) => Type.Optional(schema);
export const uri = (description: string) => Type.String({ format: 'uri', description });
export const strict = { additionalProperties: false } as const;

/** A plain file name: no separator, no leading dot (so neither `.` nor `..`), nothing absolute. */
export const CERT_FILE_NAME = '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$';
