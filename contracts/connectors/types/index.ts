// The one list of connector types (DESIGN section 3). Each type declares itself in the file of its
// name beside this one; everything else per type is derived from this list: the gateway's config
// validation, the worker's adapter table, compose, RabbitMQ, Prometheus and Kubernetes files
// (`npx tsx infra/render.ts --write`). README, "Adding a connector", walks through a new type.
import { Type, type Static } from '@sinclair/typebox';
import { validate, type Validation } from '../../validate.ts';
import type { ConnectorContract } from '../connector.ts';
import { agent_review } from './agent_review.ts';
import { auto_review } from './auto_review.ts';
import { basic_face } from './basic_face.ts';
import { basic_ocr } from './basic_ocr.ts';
import { document_auth_a } from './document_auth_a.ts';
import { document_auth_b } from './document_auth_b.ts';
import { document_auth_c } from './document_auth_c.ts';
import { face_cloud } from './face_cloud.ts';
import { face_compare_a } from './face_compare_a.ts';
import { face_compare_b } from './face_compare_b.ts';
import { identity_data } from './identity_data.ts';
import { license_registry } from './license_registry.ts';
import { liveness } from './liveness.ts';
import { people_search } from './people_search.ts';

/** In the order services, queues and manifests are listed. */
export const CONNECTORS = [
  basic_ocr,
  basic_face,
  license_registry,
  identity_data,
  liveness,
  face_compare_a,
  face_compare_b,
  agent_review,
  auto_review,
  people_search,
  document_auth_a,
  document_auth_b,
  document_auth_c,
  face_cloud,
] as const;

type Listed = (typeof CONNECTORS)[number];
export type ConnectorType = Listed['type'];
type ByType = { [C in Listed as C['type']]: C };
type ConfigByType = { [C in Listed as C['type']]: Static<C['config']> };
/** The contract of one type, with its own config schema. */
export type ConnectorOf<T extends ConnectorType> = ByType[T];
/** The verifier config of one type, as its schema validates it. */
export type ConfigOf<T extends ConnectorType> = ConfigByType[T];

export const CONNECTOR_TYPES: readonly ConnectorType[] = CONNECTORS.map((c) => c.type);
export const ConnectorTypeSchema = Type.Union(CONNECTORS.map((c) => Type.Literal(c.type)));

const byType = <V>(pick: (contract: Listed) => V) =>
  Object.fromEntries(CONNECTORS.map((c) => [c.type, pick(c)]));

export const CONNECTOR_BY_TYPE = byType((c) => c) as { [T in ConnectorType]: ConnectorOf<T> };

/** The config schema of each type (the gateway validates with it, the worker again on each job). */
export const CONFIG_BY_CONNECTOR = byType((c) => c.config) as {
  [T in ConnectorType]: ConnectorOf<T>['config'];
};

/** Checks a verifier config against its type's schema: the one place a config becomes ConfigOf<T>
 *  (tsc cannot follow a generic T from the schema table to its static type by itself). */
export function validateConfig<T extends ConnectorType>(
  type: T,
  config: unknown,
): Validation<ConfigOf<T>> {
  return validate(CONFIG_BY_CONNECTOR[type], config) as Validation<ConfigOf<T>>;
}

/** Verification kinds each connector type can perform. */
export const KINDS_BY_CONNECTOR: Record<ConnectorType, ConnectorContract['kinds']> = byType(
  (c) => c.kinds,
) as Record<ConnectorType, ConnectorContract['kinds']>;

/** Config member paths of each type that are secrets and that are addresses (see connector.ts). */
export interface ConfigMemberRoles {
  secrets: readonly string[];
  addresses: readonly string[];
}
export const CONFIG_MEMBER_ROLES = byType((c) => ({
  secrets: c.secrets,
  addresses: c.addresses,
})) as Record<ConnectorType, ConfigMemberRoles>;

/** Names of secret members of any type, masked wherever they appear (a superset is harmless). */
export const SECRET_CONFIG_FIELDS: ReadonlySet<string> = new Set(
  CONNECTORS.flatMap((c) => c.secrets.map((path: string) => path.split('/').at(-1)!)),
);

/** What a secret member shows instead of its value. */
export const SECRET_MASK = '********';

/** A copy of `value` with every secret member (at any depth, arrays included) masked. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      SECRET_CONFIG_FIELDS.has(key) ? SECRET_MASK : maskSecrets(member),
    ]),
  );
}

/** The work queue of a connector type: the gateway asks, one worker per type answers. */
export function connectorQueue(type: ConnectorType, prefix = 'idv.connector'): string {
  return `${prefix}.${type}`;
}

/** The types whose provider may answer "not final yet" (contract member `followUps`). */
export const FOLLOW_UP_TYPES: readonly ConnectorType[] = CONNECTORS.filter(
  (c) => 'followUps' in c && c.followUps !== undefined,
).map((c) => c.type);

/** The config member that signs a type's provider callbacks, when it has follow-ups. */
export function callbackSecretMember(type: ConnectorType): string | undefined {
  const contract: ConnectorContract = CONNECTOR_BY_TYPE[type] as ConnectorContract;
  return contract.followUps?.callbackSecret as string | undefined;
}

/** The member of a type's callback body naming the provider's reference, when it has follow-ups. */
export function callbackReferenceMember(type: ConnectorType): string | undefined {
  const contract: ConnectorContract = CONNECTOR_BY_TYPE[type] as ConnectorContract;
  return contract.followUps?.callbackReference;
}

/** A connector type's follow-up work queue, and its wait queue (fixed TTL, dead-letters back). */
export function followUpQueue(type: ConnectorType, prefix = 'idv.connector'): string {
  return `${connectorQueue(type, prefix)}.followup`;
}
/** The gateway's wait queue of follow-up answers that came before their run was parked pending. */
export const followUpAnswersWaitQueue = (answers: string): string => `${answers}.wait`;
/** Its fixed TTL: how often such an answer is tried again. */
export const FOLLOW_UP_ANSWER_RETRY_MS = 1000;

/**
 * The wait queues of a follow-up, one per fixed TTL (x-message-ttl, so no message waits behind a
 * longer one): a wait takes the longest tier that fits, and comes back through the follow-up queue.
 */
export const FOLLOW_UP_WAIT_TIERS_MS = [1000, 10_000, 60_000] as const;
export const followUpWaitQueue = (
  type: ConnectorType,
  tierMs: number,
  prefix = 'idv.connector',
): string => `${followUpQueue(type, prefix)}.wait.${tierMs / 1000}s`;

/** Every queue a worker of `type` declares: its job queue and, with follow-ups, theirs. */
export function workerQueues(type: ConnectorType, prefix = 'idv.connector'): string[] {
  if (!FOLLOW_UP_TYPES.includes(type)) return [connectorQueue(type, prefix)];
  return [
    connectorQueue(type, prefix),
    followUpQueue(type, prefix),
    ...FOLLOW_UP_WAIT_TIERS_MS.map((tierMs) => followUpWaitQueue(type, tierMs, prefix)),
  ];
}
