// A session row as the rest of the gateway sees it, and the mapping between the two.
import type { CaptureSide, SessionDocumentType, SessionState } from '@idv/contracts';
import type { CaptureSettings } from './captureSettings.ts';
import type { JourneyType } from './sessionJourney.ts';

export type Attempts = Partial<Record<CaptureSide, number>>;

export interface SessionRecord {
  id: string;
  communityId: string;
  tenantId: string;
  configId: string;
  dvcID: string;
  status: SessionState;
  journeyType: JourneyType;
  documentType: SessionDocumentType | null;
  documentFixed: boolean;
  locale: string | null;
  redirectUrl: string | null;
  metadata: Record<string, string | number | boolean> | null;
  settings: CaptureSettings;
  consent: { at: string; textVersion: string } | null;
  attempts: Attempts;
  runId: string | null;
  failure: string | null;
  /** the licence that created it, the only one to read its result (null: from before 008) */
  ownerLicenceId: string | null;
  /** a resubmission's: the review case that asked for it */
  reviewCaseId: string | null;
  createdAt: Date;
  openedAt: Date | null;
  lastActivityAt: Date | null;
  submittedAt: Date | null;
  endedAt: Date | null;
  expiresAt: Date;
  version: number;
}

export interface SessionRow {
  id: string;
  community_id: string;
  tenant_id: string;
  config_id: string;
  dvc_id: string;
  token_hash: string;
  status: SessionState;
  journey_type: JourneyType;
  document_type: SessionDocumentType | null;
  document_fixed: boolean;
  locale: string | null;
  redirect_url: string | null;
  metadata: SessionRecord['metadata'];
  settings: CaptureSettings;
  request_sealed: string | null;
  consent: SessionRecord['consent'];
  attempts: Attempts;
  run_id: string | null;
  failure: string | null;
  owner_licence_id: string | null;
  review_case_id: string | null;
  created_at: Date;
  opened_at: Date | null;
  last_activity_at: Date | null;
  submitted_at: Date | null;
  ended_at: Date | null;
  expires_at: Date;
  version: number;
}

export function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    communityId: row.community_id,
    tenantId: row.tenant_id,
    configId: row.config_id,
    dvcID: row.dvc_id,
    status: row.status,
    journeyType: row.journey_type,
    documentType: row.document_type,
    documentFixed: row.document_fixed,
    locale: row.locale,
    redirectUrl: row.redirect_url,
    metadata: row.metadata,
    settings: row.settings,
    consent: row.consent,
    attempts: row.attempts ?? {},
    runId: row.run_id,
    failure: row.failure,
    ownerLicenceId: row.owner_licence_id,
    reviewCaseId: row.review_case_id,
    createdAt: row.created_at,
    openedAt: row.opened_at,
    lastActivityAt: row.last_activity_at,
    submittedAt: row.submitted_at,
    endedAt: row.ended_at,
    expiresAt: row.expires_at,
    version: row.version,
  };
}
