// Verification kinds (spec 2.2): what a caller asks POST /verify for, and what connectors perform.
import { Type } from '@sinclair/typebox';

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
