// POST /verify: decrypt, validate every rule of spec 2.2, run, answer {data: encrypt(result),
// publicKey}; with `Prefer: respond-async` it answers 202 at once and a verification run does the
// work. GET /verification/{id} follows a run, or reads a kept result: the asking licence's own
// (resultOwner.ts), a session's with its images kept until then.
import { randomUUID } from 'node:crypto';
import {
  credentialsOf,
  openEncryptedBody,
  overBudget,
  type CredentialAuth,
  type ImageBudget,
} from '@idv/auth';
import {
  EncryptedAnswer,
  refusedImageUrls,
  VerifyAccepted,
  VerifyBody,
  VerifyRequest,
  verificationViewStatus,
  type VerificationView,
  type VerifyResult,
} from '@idv/contracts';
import { BadRequest, HttpError, NotFound, type Route } from '@idv/http';
import type { Request, Response } from 'express';
import { resultAccess } from './resultOwner.ts';
import { configured } from '../sessions/sessionJourney.ts';
import { imageCosts } from './imageCosts.ts';
import { checkVerifyRules } from './verifyRules.ts';
import { retrieveSessionResult } from '../sessions/callerSessions.ts';
import { asyncVerifyRun, type RunRecord, type RunStore } from '../runs/runStore.ts';
import type { ReviewSealedStore } from '../review/reviewSealedStore.ts';
import type { SessionImageStore } from '../sessions/sessionImageStore.ts';
import type {
  VerificationConfigRecord,
  VerificationConfigStore,
} from '../verificationConfigs/verificationConfigStore.ts';
import type { RunQueue } from '../runs/runQueue.ts';
import { verifyAndRecord, type VerifyAndRecordDeps } from './verifyAndRecord.ts';
import { scopeOf, sendEncrypted } from '../shared/sendEncrypted.ts';

export interface VerifyRouteDeps extends VerifyAndRecordDeps {
  auth: CredentialAuth;
  /** a run in review waiting for the person's new captures: its owner reads the link */
  reviewSealed: ReviewSealedStore;
  configs: VerificationConfigStore;
  runs: RunStore;
  images: SessionImageStore;
  runQueue: RunQueue;
  /** ms a /verify may wait for its connectors */
  deadlineMs: number;
  /** ms an async run's connectors have (ASYNC_VERIFY_DEADLINE_MS) */
  asyncDeadlineMs: number;
  /** the communities' image budgets (RATE_LIMIT_IMAGES_*) */
  imageBudget: ImageBudget;
}

/** RFC 7240: the request asks for an asynchronous answer. */
function prefersAsync(req: Request): boolean {
  const prefer = req.get('prefer') ?? '';
  return prefer.split(',').some((p) => p.split(';')[0]!.trim().toLowerCase() === 'respond-async');
}

function refuseUnconfigured(request: VerifyRequest, config: VerificationConfigRecord): void {
  const missing = request.verifications.filter((kind) => !configured(config.arrays, kind));
  if (missing.length > 0)
    throw new BadRequest(
      `verification config ${config.tag} has no verifier for ${missing.join(', ')}`,
      missing.map((kind) => ({ path: '/verifications', message: `${kind} is not configured` })),
    );
}

/**
 * The owner's read of a run's result: kept until retrieved, it goes with this read; a session's
 * run takes the session's images kept until then along (a failed one too).
 */
async function retrieveRunResult(
  deps: VerifyRouteDeps,
  run: RunRecord,
): Promise<VerifyResult | undefined> {
  const completed = run.status === 'completed' ? run.id : undefined;
  if (run.sessionId && (completed || run.status === 'failed'))
    return retrieveSessionResult(deps, run.sessionId, completed);
  return completed ? deps.runs.retrieve(completed) : undefined;
}

/** The community's image URL hosts, when it has a list: no image URL may name another host. */
function refuseImageUrlHosts(request: VerifyRequest, hosts: readonly string[]): void {
  const refused = refusedImageUrls(request.document, hosts);
  if (refused.length > 0)
    throw new BadRequest(
      refused[0]!.message,
      refused.map((r) => ({ path: `/document/${r.member}`, message: r.message })),
    );
}

export function verifyRoutes(deps: VerifyRouteDeps): Route[] {
  /** The request and its config, or the 400/404 that says why not. */
  const checked = async (req: Request, res: Response) => {
    const credentials = credentialsOf(res);
    const request = openEncryptedBody(credentials, req.body, VerifyRequest);
    const issues = checkVerifyRules(request);
    if (issues.length > 0)
      throw new BadRequest(`request is invalid: ${issues[0]!.path} ${issues[0]!.message}`, issues);
    const costs = imageCosts(request);
    if (costs.issues.length > 0)
      throw new HttpError(
        422,
        'Unprocessable Entity',
        `${costs.issues[0]!.path}: ${costs.issues[0]!.message}`,
        costs.issues,
      );
    const configs = await deps.configs.findCached(scopeOf(credentials.licence), request.dvcID);
    if (configs.length === 0) throw new NotFound(`verification config ${request.dvcID} not found`);
    if (configs.length > 1)
      throw new BadRequest(
        `dvcID ${request.dvcID} names configs in several communities: use its id`,
      );
    const config = configs[0]!;
    refuseImageUrlHosts(request, await deps.imageUrlHosts.of(config.communityId));
    refuseUnconfigured(request, config);
    // last, before anything is stored or sent on (a request refused above spends nothing): the
    // decoding its images ask for, from the budget of the community whose config runs them
    const overSpent = await deps.imageBudget.take(config.communityId, costs.bytes);
    if (overSpent) {
      await deps.imageBudget.hold(config.communityId, overSpent);
      throw overBudget(overSpent);
    }
    return { credentials, request, config };
  };

  return [
    {
      method: 'POST',
      path: '/verify',
      doc: {
        summary:
          'verifies a document or person: body {data: encrypt(request of spec 2.2)}, answer {data: encrypt(result), publicKey}; a result its config has a human review answers status pending without certifications, and GET /verification/{verificationId} follows it until the decision (as a pending connector answer); with the header `Prefer: respond-async`: 202 {verificationId, status: processing} at once, with Location and Preference-Applied',
        body: VerifyBody,
        response: EncryptedAnswer,
        alternatives: [{ status: 202, when: 'Prefer: respond-async', response: VerifyAccepted }],
        errors: [422, 503],
      },
      guards: [deps.auth.require()],
      handler: async (req, res) => {
        const deadline = Date.now() + deps.deadlineMs;
        const { credentials, request, config } = await checked(req, res);
        if (prefersAsync(req)) {
          const id = randomUUID();
          const now = deps.clock.now();
          await deps.runs.create(
            asyncVerifyRun(
              id,
              config,
              request.dvcID,
              new Date(now.getTime() + deps.asyncDeadlineMs),
              credentials.licence.id,
            ),
            request,
          );
          await deps.runQueue.enqueue(id, config.communityId);
          res
            .status(202)
            .set({ 'Preference-Applied': 'respond-async', Location: `/verification/${id}` })
            .json({ verificationId: id, status: 'processing' });
          return;
        }
        const { result, events } = await verifyAndRecord(deps, request, config, deadline, {
          mode: 'sync',
          ownerLicenceId: credentials.licence.id,
        });
        sendEncrypted(res, credentials, result);
        // after the answer, so the caller does not wait for the broker; the outbox keeps what fails
        void deps.outbox.flush(events);
      },
    },
    {
      method: 'GET',
      path: '/verification/:verificationId',
      doc: {
        summary:
          'a verification: an async run (processing | pending | completed | failed, with the result once completed, kept until retrieved; pending too while a human review decides it, with `resubmission` {sessionId, url, expiresAt} while the person is asked to capture again) or a result kept per the data retention; {data: encrypt({verificationId, status, result?, failure?, resubmission?}), publicKey}. Only the licence that asked for it (a session: created it) reads the result, and consumes it (with the session images kept until then); a system licence sees the status only; other licences get 404',
        response: EncryptedAnswer,
      },
      guards: [deps.auth.require()],
      handler: async (req, res) => {
        const credentials = credentialsOf(res);
        const id = String(req.params.verificationId);
        const scope = scopeOf(credentials.licence);
        const run = await deps.runs.get(id, scope);
        const access = run && resultAccess(run.ownerLicenceId, credentials.licence);
        let view: VerificationView | undefined;
        if (run && access !== 'none') {
          const result = access === 'owner' ? await retrieveRunResult(deps, run) : undefined;
          const awaited =
            access === 'owner' && run.status === 'review'
              ? await deps.reviewSealed.awaitedResubmission(run.id)
              : undefined;
          view = {
            verificationId: id,
            status: verificationViewStatus(run.status),
            ...(result ? { result } : {}),
            ...(run.failure ? { failure: run.failure } : {}),
            ...(awaited ? { resubmission: awaited } : {}),
          };
        } else if (!run) {
          const kept = await deps.verifications.retrieve(id, scope, credentials.licence);
          if (kept)
            view = {
              verificationId: id,
              status: 'completed',
              ...(kept.result ? { result: kept.result } : {}),
            };
        }
        if (!view)
          throw new NotFound('verification not found: never kept, already retrieved or expired');
        sendEncrypted(res, credentials, view);
      },
    },
  ];
}
