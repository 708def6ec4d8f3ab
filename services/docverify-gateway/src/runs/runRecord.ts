// A verification run row as the rest of the gateway sees it, and the mapping between the two.
import type { RunStatus, VerificationKind } from '@idv/contracts';

/** A kind whose connector answered "not final yet", with what its follow-up needs. */
export interface PendingKind {
  verifier: string;
  since: string;
  /** the provider's reference the follow-up uses (from the connector's answer) */
  followUp?: unknown;
}
export type PendingKinds = Partial<Record<VerificationKind, PendingKind>>;

export interface RunRecord {
  id: string;
  communityId: string;
  tenantId: string;
  configId: string;
  dvcID: string;
  kind: 'async_verify' | 'session';
  sessionId: string | null;
  /** the licence that asked for it (a session's: the session's), the only one to read its result */
  ownerLicenceId: string | null;
  status: RunStatus;
  pending: PendingKinds | null;
  failure: string | null;
  deadline: Date;
  starts: number;
  createdAt: Date;
  endedAt: Date | null;
}

export interface RunRow {
  id: string;
  community_id: string;
  tenant_id: string;
  config_id: string;
  dvc_id: string;
  kind: RunRecord['kind'];
  session_id: string | null;
  owner_licence_id: string | null;
  status: RunStatus;
  pending: PendingKinds | null;
  failure: string | null;
  deadline: Date;
  starts: number;
  created_at: Date;
  ended_at: Date | null;
}

export const toRun = (row: RunRow): RunRecord => ({
  id: row.id,
  communityId: row.community_id,
  tenantId: row.tenant_id,
  configId: row.config_id,
  dvcID: row.dvc_id,
  kind: row.kind,
  sessionId: row.session_id,
  ownerLicenceId: row.owner_licence_id,
  status: row.status,
  pending: row.pending,
  failure: row.failure,
  deadline: row.deadline,
  starts: row.starts,
  createdAt: row.created_at,
  endedAt: row.ended_at,
});
