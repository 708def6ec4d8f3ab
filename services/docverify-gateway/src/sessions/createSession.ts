// POST /document_share_session/create: a session for one verification config of the caller's
// communities, whose journey that config can run, with its page token (returned once, in the URL).
import { randomUUID } from 'node:crypto';
import {
  DOCUMENT_TYPE_WORDS,
  sessionDocumentTypeOf,
  type CaptureSide,
  type EventEnvelope,
  type SessionCreate,
  type SessionDocumentType,
} from '@idv/contracts';
import type { Knex } from '@idv/db';
import { InputError, NotFoundError } from '@idv/errors';
import { newPageToken, pageTokenHash } from '../capture/pageToken.ts';
import { captureSettings, type ReviewScreens } from './captureSettings.ts';
import { documentTypesOf, journeyIssues, type JourneyType } from './sessionJourney.ts';
import type { SessionRecord } from './sessionRecord.ts';
import type { VerificationConfigRecord } from '../verificationConfigs/verificationConfigStore.ts';
import type { SessionDeps } from './deps.ts';
import { sessionEvents } from './events.ts';
import { TIMER_MS } from './timers.ts';
import { sessionKeyOwner } from './sessionImageStore.ts';

const DOCUMENT_KINDS = ['dl_authenticate', 'idcard_authenticate', 'ppt_authenticate'] as const;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https anywhere, http only on loopback (a developer's machine): the person's browser goes there. */
function redirectIssue(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol === 'https:') return undefined;
  if (parsed?.protocol === 'http:' && LOOPBACK.has(parsed.hostname)) return undefined;
  return 'must be an https URL (http only on loopback)';
}

async function findConfig(
  deps: SessionDeps,
  scope: string[] | 'all',
  dvcID: string,
): Promise<VerificationConfigRecord> {
  const configs = await deps.configs.find(scope, dvcID);
  if (configs.length === 0) throw new NotFoundError(`verification config ${dvcID} not found`);
  if (configs.length > 1)
    throw new InputError(`dvcID ${dvcID} names configs in several communities: use its id`);
  return configs[0]!;
}

/** What the config's document verifiers' scan channels say about review screens. */
async function reviewScreens(
  deps: SessionDeps,
  config: VerificationConfigRecord,
): Promise<ReviewScreens[]> {
  const tags = DOCUMENT_KINDS.flatMap((kind) => (config.arrays[kind] ?? []).map((i) => i.verifier));
  if (tags.length === 0) return [];
  const verifiers = await deps.verifiers.findByTagsCached(config.communityId, [...new Set(tags)]);
  return verifiers.map(
    (v) => (v.config.scan_channelConfiguration as ReviewScreens | undefined) ?? {},
  );
}

/** The document type the caller fixed, in the platform's spelling; a 400 naming the accepted ones. */
function fixedDocumentType(given: string | undefined): SessionDocumentType | undefined {
  if (given === undefined) return undefined;
  const type = sessionDocumentTypeOf(given);
  if (type) return type;
  const message = `must be one of ${DOCUMENT_TYPE_WORDS}`;
  throw new InputError(`sessionRequest.documentType ${message}`, [
    { path: '/sessionRequest/documentType', message },
  ]);
}

export interface CreatedSession {
  session: SessionRecord;
  url: string;
}

/** What a new session is made of, however it was asked for. */
export interface SessionSpec {
  config: VerificationConfigRecord;
  dvcID: string;
  journey: JourneyType;
  /** the document type fixed for the person; undefined: they choose */
  fixed: SessionDocumentType | undefined;
  /** sessionRequest.locale; null: the page follows the browser's languages */
  locale: string | null;
  redirectUrl: string | null;
  metadata: SessionRecord['metadata'];
  /** the caller's data of the person, sealed under the session's key */
  personal: Record<string, string | undefined>;
  ownerLicenceId: string | null;
  /** a resubmission: the case that asks for it and the only sides captured again */
  resubmission?: { caseId: string; sides: CaptureSide[] };
}

/**
 * Stores a new session with its page token (in `trx` when given): the session, its page URL and
 * the events to publish once committed.
 */
export async function openSession(
  deps: SessionDeps,
  spec: SessionSpec,
  trx?: Knex.Transaction,
): Promise<CreatedSession & { events: EventEnvelope[] }> {
  const { config } = spec;
  const id = randomUUID();
  const token = newPageToken();
  const now = deps.clock.now();
  const documentTypes = spec.fixed ? [spec.fixed] : documentTypesOf(config.arrays);
  // the session's own data key: its request and images are sealed under it (erasure destroys it)
  const sessionKey = await deps.keys.newDataKey(sessionKeyOwner(id), trx);
  const settings = captureSettings(
    config.settings,
    documentTypes,
    await reviewScreens(deps, config),
  );
  const { session, events } = await deps.sessions.create(
    {
      row: {
        id,
        community_id: config.communityId,
        tenant_id: config.tenantId,
        config_id: config.id,
        dvc_id: spec.dvcID,
        token_hash: pageTokenHash(token),
        status: 'created',
        journey_type: spec.journey,
        document_type: spec.fixed ?? null,
        document_fixed: spec.fixed !== undefined,
        locale: spec.locale,
        redirect_url: spec.redirectUrl,
        metadata: spec.metadata,
        settings: spec.resubmission ? { ...settings, sides: spec.resubmission.sides } : settings,
        request_sealed: sessionKey.seal(JSON.stringify(spec.personal), `session-request:${id}`),
        consent: null,
        attempts: {},
        run_id: null,
        failure: null,
        owner_licence_id: spec.ownerLicenceId,
        review_case_id: spec.resubmission?.caseId ?? null,
        opened_at: null,
        last_activity_at: null,
        submitted_at: null,
        ended_at: null,
      },
      expiresAt: new Date(now.getTime() + TIMER_MS.expireSessionInMin),
    },
    (created) =>
      sessionEvents(created, {
        journeyType: created.journeyType,
        documentType: created.documentType,
        expiresAt: created.expiresAt.toISOString(),
      }),
    trx,
  );
  return { session, events, url: `${deps.publicUrl.replace(/\/+$/, '')}/capture/${token}` };
}

/** `ownerLicenceId`: the caller's licence, the only one that will read the session's result. */
export async function createSession(
  deps: SessionDeps,
  scope: string[] | 'all',
  input: SessionCreate,
  ownerLicenceId: string,
): Promise<CreatedSession> {
  const request = input.sessionRequest;
  const redirect = redirectIssue(request.redirectUrl);
  if (redirect)
    throw new InputError(`sessionRequest.redirectUrl ${redirect}`, [
      { path: '/sessionRequest/redirectUrl', message: redirect },
    ]);
  const fixed = fixedDocumentType(request.documentType);
  const config = await findConfig(deps, scope, input.dvcID);
  const journey: JourneyType =
    request.journeyType ?? config.settings.journeyType ?? 'KYC_WITH_FACE_COMPARISON';
  const issues = journeyIssues(config.arrays, journey, fixed);
  if (issues.length > 0)
    throw new InputError(
      `the verification config cannot run this session: ${issues[0]!.message}`,
      issues,
    );
  const { session, url, events } = await openSession(deps, {
    config,
    dvcID: input.dvcID,
    journey,
    fixed,
    locale: request.locale ?? null,
    redirectUrl: request.redirectUrl ?? null,
    metadata: request.metadata ?? null,
    personal: {
      userUID: request.userUID,
      did: request.did,
      tenantDNS: request.tenantDNS,
      communityName: request.communityName,
    },
    ownerLicenceId,
  });
  void deps.outbox.flush(events);
  return { session, url };
}
