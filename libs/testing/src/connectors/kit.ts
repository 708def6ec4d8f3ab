// What each connector type brings to the shared suites (adapters against the sandbox, concurrency
// at 64, config addresses, POST /verify end to end): connectors/<type>.ts exports `kit`, found
// by the type's name, so the suites cover every type of the list and a new type adds one file.
import {
  CONNECTOR_TYPES,
  type ConfigOf,
  type ConnectorType,
  type VerificationKind,
} from '@idv/contracts';

type Document = Record<string, unknown>;
type Status = 'verified' | 'not_verified' | 'inconclusive';

/** One request to a worker of the type and the answer the sandbox's fixtures lead to. */
export interface Case<T extends ConnectorType> {
  name: string;
  kind: VerificationKind;
  config: (sandbox: string) => ConfigOf<T>;
  document: Document;
  status: Status;
  check?: (result: Record<string, unknown>) => void;
}

/** A verification config of one kind through POST /verify: a match and a mismatch. */
export interface EndToEnd<T extends ConnectorType> {
  kind: VerificationKind;
  /** verifier tag when the type has more than one row; the type's name otherwise */
  tag?: string;
  config: (sandbox: string) => ConfigOf<T>;
  match: () => Document | Promise<Document>;
  mismatch: () => Document | Promise<Document>;
}

export interface ConnectorTestKit<T extends ConnectorType> {
  type: T;
  /** the adapter suite's cases; the first verified one is the concurrency suite's request */
  cases: Case<T>[];
  /** replaces that request when it needs building (a generated barcode) */
  healthy?: () => Promise<Pick<Case<T>, 'kind' | 'document'> & { config: ConfigOf<T> }>;
  /**
   * A config that works for every kind of the type, its addresses left to connectorUrl where
   * they may: the address suite sets each member to a trap's URL in turn. null for a type that
   * calls no provider.
   */
  configForEveryKind: ((sandbox: string) => ConfigOf<T>) | null;
  endToEnd: EndToEnd<T>[];
}

export function defineTestKit<T extends ConnectorType>(kit: ConnectorTestKit<T>) {
  return kit;
}

/** The kit of one type, from connectors/<type>.ts. */
export async function testKitOf<T extends ConnectorType>(type: T): Promise<ConnectorTestKit<T>> {
  const module = (await import(`./${type}.ts`)) as { kit?: ConnectorTestKit<T> };
  if (module.kit?.type !== type)
    throw new Error(`libs/testing/src/connectors/${type}.ts exports no kit of ${type}`);
  return module.kit;
}

/** Every type's kit, in the list's order. */
export function testKits(): Promise<ConnectorTestKit<ConnectorType>[]> {
  return Promise.all(CONNECTOR_TYPES.map((type) => testKitOf(type)));
}
