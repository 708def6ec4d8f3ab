// Connector types (DESIGN section 3), verification kinds (spec 2.2) and which kinds each type serves.
import { Type, type Static } from '@sinclair/typebox';

export const CONNECTOR_TYPES = [
  'basic_ocr',
  'license_registry',
  'identity_data',
  'liveness',
  'face_compare_a',
  'face_compare_b',
  'agent_review',
  'auto_review',
  'people_search',
  'document_auth_a',
  'document_auth_b',
  'document_auth_c',
  'face_cloud',
] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];
export const ConnectorTypeSchema = Type.Union(CONNECTOR_TYPES.map((t) => Type.Literal(t)));

export const VERIFICATION_KINDS = [
  'dl_verify',
  'face_liveness',
  'face_compare',
  'ssn_verify',
  'person_verify',
  'dl_authenticate',
  'ppt_authenticate',
  'idcard_authenticate',
  'document_liveness',
] as const;
export type VerificationKind = (typeof VERIFICATION_KINDS)[number];
export const VerificationKindSchema = Type.Union(VERIFICATION_KINDS.map((k) => Type.Literal(k)));

/** The work queue of a connector type: the gateway asks, one worker per type answers. */
export function connectorQueue(type: ConnectorType, prefix = 'idv.connector'): string {
  return `${prefix}.${type}`;
}

/** Verification kinds each connector type can perform; a config item naming a verifier of
 *  another kind is refused when the config is written. */
export const KINDS_BY_CONNECTOR: Record<ConnectorType, readonly VerificationKind[]> = {
  basic_ocr: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate', 'dl_verify'],
  license_registry: ['dl_verify'],
  identity_data: ['ssn_verify', 'person_verify'],
  liveness: ['face_liveness', 'document_liveness'],
  face_compare_a: ['face_compare'],
  face_compare_b: ['face_compare'],
  agent_review: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate'],
  auto_review: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate'],
  people_search: ['person_verify', 'ssn_verify'],
  document_auth_a: [
    'dl_authenticate',
    'ppt_authenticate',
    'idcard_authenticate',
    'document_liveness',
    'face_compare',
  ],
  document_auth_b: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate', 'face_compare'],
  document_auth_c: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate'],
  face_cloud: ['face_compare'],
};

export type ConnectorTypeName = Static<typeof ConnectorTypeSchema>;
