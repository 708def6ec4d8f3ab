// POST /connector-callback/{verifierId}?verificationId=&kind=: a provider tells the platform that a
// pending answer is decided. Authenticated per connector, scheme v2 (connectorCallbackSignature.ts):
// x-callback-signature `v2=<hex HMAC-SHA256>` with the verifier's config member its type names
// (followUps.callbackSecret) over "<x-callback-timestamp>\n<METHOD>\n<path?query>\n<raw body>", so
// the signature binds the callback to its verifier, run and kind; the timestamp within
// CONNECTOR_CALLBACK_WINDOW_S of now; compared in constant time. The body must name, in the member its type
// names (followUps.callbackReference), the reference the run waits for (else 409), and a signature
// is accepted once (a replay inside the window is 409, across replicas: callbackReplayStore.ts).
// The body goes to the type's worker on its follow-up queue, which reads it as the adapter's poll
// answer would be read and answers the gateway like a poll; a settled kind makes a fresh callback a
// no-op (202 not_pending).
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { UnroutableMessageError, type Broker } from '@idv/broker';
import {
  callbackReferenceMember,
  callbackSecretMember,
  followUpQueue,
  FOLLOW_UP_TYPES,
  VERIFICATION_KINDS,
  type FollowUpJob,
  type FollowUpSecrets,
  type VerificationKind,
} from '@idv/contracts';
import {
  CONNECTOR_CALLBACK_WINDOW_S,
  connectorCallbackSignature,
  type SecretBox,
} from '@idv/crypto';
import {
  BadRequest,
  Conflict,
  NotFound,
  Unauthorized,
  Unavailable,
  parseJsonBytes,
  type Route,
} from '@idv/http';
import express, { type Request } from 'express';
import type { CallbackReplayStore } from './callbackReplayStore.ts';
import { callbackUrlOf } from './followUpTarget.ts';
import type { RunStore } from '../runs/runStore.ts';
import type { VerifierRecord, VerifierStore } from '../verifiers/verifierStore.ts';

export interface CallbackRouteDeps {
  verifiers: VerifierStore;
  runs: RunStore;
  replays: CallbackReplayStore;
  broker: Broker;
  box: SecretBox;
  queuePrefix: string;
  /** DOCVERIFY_FOLLOWUPS_QUEUE: where the worker sends the final answer */
  answerTo: string;
  /** PENDING_FOLLOW_UP_MS: a callback's follow-up job ends by then at the latest */
  followUpMs: number;
  /** CONNECTOR_CALLBACK_URL: the base of the callback URLs providers are given */
  callbackBaseUrl: string;
}

const CALLBACK_BODY_LIMIT = '256kb';
/** Replicas' clocks differ a little: a signature is remembered this long past its window. */
const CLOCK_SLACK_S = 60;

/** The targets a provider may have signed: the callback URL it was given, and the one received. */
function givenTargets(req: Request, verifierId: string, callbackBaseUrl: string): string[] {
  const { verificationId, kind } = req.query;
  if (!callbackBaseUrl || typeof verificationId !== 'string' || typeof kind !== 'string')
    return [req.originalUrl];
  const given = new URL(
    callbackUrlOf(callbackBaseUrl, verifierId, verificationId, kind as VerificationKind),
  );
  return [`${given.pathname}${given.search}`, req.originalUrl];
}

/** The callback's signature (hex) once it is the one its verifier's secret makes, else 401. */
function authenticate(
  req: Request,
  verifier: VerifierRecord,
  body: Buffer,
  callbackBaseUrl: string,
): { timestamp: number; mac: string } {
  const member = callbackSecretMember(verifier.type);
  const secret = member ? verifier.config[member] : undefined;
  const timestamp = req.get('x-callback-timestamp') ?? '';
  const given = req.get('x-callback-signature') ?? '';
  if (typeof secret !== 'string' || secret === '')
    throw new Unauthorized('this verifier has no callback secret: its provider cannot call back');
  if (!/^\d{1,12}$/.test(timestamp) || !given)
    throw new Unauthorized('x-callback-timestamp and x-callback-signature are required');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > CONNECTOR_CALLBACK_WINDOW_S)
    throw new Unauthorized(
      `x-callback-timestamp is more than ${CONNECTOR_CALLBACK_WINDOW_S} s from now`,
    );
  if (given.startsWith('v1='))
    throw new Unauthorized(
      'x-callback-signature v1 (timestamp.body) is no longer accepted: sign v2, over timestamp, method, path with query and body',
    );
  const actual = Buffer.from(given);
  const matches = (target: string) => {
    const expected = Buffer.from(
      connectorCallbackSignature(secret, { timestamp, method: req.method, target, body }),
    );
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  };
  // the address the provider was given (a proxy in front may strip a prefix or re-encode the
  // query), or the request target as it arrived: either binds the verifier, run and kind
  if (!givenTargets(req, verifier.id, callbackBaseUrl).some(matches))
    throw new Unauthorized(
      'x-callback-signature does not match (v2: timestamp, method, path with query, body)',
    );
  return { timestamp: Number(timestamp), mac: given.slice('v2='.length) };
}

/** The reference the callback names: it must be the one the run waits for, else 400 or 409. */
function boundReference(verifier: VerifierRecord, callback: unknown, waitingFor: unknown): string {
  const member = callbackReferenceMember(verifier.type) ?? '';
  const named =
    callback && typeof callback === 'object' && !Array.isArray(callback)
      ? (callback as Record<string, unknown>)[member]
      : undefined;
  if (typeof named !== 'string' || named === '')
    throw new BadRequest(`the callback body must name the provider's reference in ${member}`, [
      { path: `/${member}`, message: 'is required' },
    ]);
  const reference = (waitingFor as { reference?: unknown } | undefined)?.reference;
  if (named !== reference)
    throw new Conflict(
      `the callback's ${member} is not the reference this verification waits for: a callback settles only its own run`,
    );
  return named;
}

export function connectorCallbackRoutes(deps: CallbackRouteDeps): Route[] {
  const raw = express.raw({ type: () => true, limit: CALLBACK_BODY_LIMIT });
  return [
    {
      method: 'POST',
      path: '/connector-callback/:verifierId',
      jsonBody: false,
      guards: [raw],
      doc: {
        summary:
          "a provider's callback for a pending answer (?verificationId=&kind=), signed: x-callback-timestamp (unix s, within 300 s), x-callback-signature v2=<hex HMAC-SHA256(secret, timestamp\\nMETHOD\\npath?query\\nbody)>, each signature accepted once; the body names the pending run's provider reference (agent_review: reviewId); 202 {status: accepted}, or {status: not_pending} once the kind is settled; 400 body not JSON, nested too deep or naming no reference; 401 bad signature; 404 unknown verifier, run or kind; 409 a replayed callback or another run's reference",
        success: 202,
        errors: [401, 409, 503],
      },
      handler: async (req, res) => {
        const verifier = await deps.verifiers.byId(String(req.params.verifierId));
        if (!verifier || !FOLLOW_UP_TYPES.includes(verifier.type))
          throw new NotFound('no verifier whose provider calls back has this id');
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const signed = authenticate(req, verifier, body, deps.callbackBaseUrl);
        const callback = parseJsonBytes(body, 'the callback body');
        const kind = String(req.query.kind ?? '') as VerificationKind;
        const run = VERIFICATION_KINDS.includes(kind)
          ? await deps.runs.get(String(req.query.verificationId ?? ''), [verifier.communityId])
          : undefined;
        const waiting = run?.pending?.[kind];
        // held for a human review: every kind of it had its final answer
        const settled = run !== undefined && ['completed', 'failed', 'review'].includes(run.status);
        if (!settled && (!run || !waiting || waiting.verifier !== verifier.tag))
          throw new NotFound(
            'no pending verification of this verifier matches verificationId and kind',
          );
        const reference = settled ? '' : boundReference(verifier, callback, waiting?.followUp);
        // remembered only once it is answered 202: a callback refused above (too early, another
        // reference, a database error) may be sent again as it was
        const expiresAt = new Date(
          (signed.timestamp + CONNECTOR_CALLBACK_WINDOW_S + CLOCK_SLACK_S) * 1000,
        );
        if (!(await deps.replays.firstSeen(signed.mac, verifier.id, expiresAt)))
          throw new Conflict(
            'this callback was received already: a provider signs each callback it sends anew',
          );
        if (settled || !run) return void res.status(202).json({ status: 'not_pending' });
        const followUpId = randomUUID();
        const secrets: FollowUpSecrets = { config: verifier.config, reference };
        const job: FollowUpJob = {
          followUpId,
          verificationId: run.id,
          kind,
          verifier: {
            id: verifier.id,
            tag: verifier.tag,
            type: verifier.type,
            connectorUrl: verifier.connectorUrl,
          },
          sealed: deps.box.seal(JSON.stringify(secrets), followUpId),
          answerTo: deps.answerTo,
          how: 'callback',
          deadline: Date.now() + deps.followUpMs,
          pollAt: Date.now(),
          attempt: 0,
          callback,
        };
        await deps.broker
          .publish('', followUpQueue(verifier.type, deps.queuePrefix), job)
          .catch(async (err: unknown) => {
            // not handed on: the provider may send this very callback again
            await deps.replays.forget(signed.mac);
            // no worker of the type ever declared its queue: the provider should try again later
            if (err instanceof UnroutableMessageError)
              throw new Unavailable(
                'no connector worker takes follow-ups of this type now; retry later',
                30,
              );
            throw err;
          });
        res.status(202).json({ status: 'accepted' });
      },
    },
  ];
}
