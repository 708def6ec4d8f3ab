// POST /connector-callback/{verifierId}?verificationId=&kind=: a provider tells the platform that a
// pending answer is decided. Authenticated per connector: HMAC-SHA256 over `${timestamp}.${body}`
// with the verifier's config member its type names (followUps.callbackSecret), headers
// x-callback-timestamp (unix seconds, within CALLBACK_WINDOW_S of now) and x-callback-signature
// (`v1=<hex>`), compared in constant time. The body goes to the type's worker on its follow-up
// queue, which reads it as the adapter's poll answer would be read and answers the gateway like a
// poll; a settled kind makes a repeated callback a no-op (202 not_pending).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { UnroutableMessageError, type Broker } from '@idv/broker';
import {
  callbackSecretMember,
  followUpQueue,
  FOLLOW_UP_TYPES,
  VERIFICATION_KINDS,
  type FollowUpJob,
  type FollowUpSecrets,
  type VerificationKind,
} from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import { BadRequest, NotFound, Unauthorized, Unavailable, type Route } from '@idv/http';
import express, { type Request } from 'express';
import type { RunStore } from '../store/runs.ts';
import type { VerifierRecord, VerifierStore } from '../store/verifiers.ts';

export interface CallbackRouteDeps {
  verifiers: VerifierStore;
  runs: RunStore;
  broker: Broker;
  box: SecretBox;
  queuePrefix: string;
  /** DOCVERIFY_FOLLOWUPS_QUEUE: where the worker sends the final answer */
  answerTo: string;
  /** PENDING_FOLLOW_UP_MS: a callback's follow-up job ends by then at the latest */
  followUpMs: number;
}

/** Seconds a callback's timestamp may be from now: a captured callback is no use later. */
export const CALLBACK_WINDOW_S = 300;
const CALLBACK_BODY_LIMIT = '256kb';

/** The signature a provider sends for `body` at `timestamp` (also what tests sign with). */
export function callbackSignature(
  secret: string,
  timestamp: string,
  body: Buffer | string,
): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

function authenticate(req: Request, verifier: VerifierRecord, body: Buffer): void {
  const member = callbackSecretMember(verifier.type);
  const secret = member ? verifier.config[member] : undefined;
  const timestamp = req.get('x-callback-timestamp') ?? '';
  const given = req.get('x-callback-signature') ?? '';
  if (typeof secret !== 'string' || secret === '')
    throw new Unauthorized('this verifier has no callback secret: its provider cannot call back');
  if (!/^\d{1,12}$/.test(timestamp) || !given)
    throw new Unauthorized('x-callback-timestamp and x-callback-signature are required');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > CALLBACK_WINDOW_S)
    throw new Unauthorized(`x-callback-timestamp is more than ${CALLBACK_WINDOW_S} s from now`);
  const expected = Buffer.from(callbackSignature(secret, timestamp, body));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
    throw new Unauthorized('x-callback-signature does not match');
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
          "a provider's callback for a pending answer (?verificationId=&kind=), signed: x-callback-timestamp, x-callback-signature v1=<hex HMAC-SHA256(secret, timestamp.body)>; 202 {status: accepted}, or {status: not_pending} once the kind is settled (a repeated callback changes nothing); 401 bad signature, 404 unknown verifier, run or kind",
        success: 202,
        errors: [401, 503],
      },
      handler: async (req, res) => {
        const verifier = await deps.verifiers.byId(String(req.params.verifierId));
        if (!verifier || !FOLLOW_UP_TYPES.includes(verifier.type))
          throw new NotFound('no verifier whose provider calls back has this id');
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        authenticate(req, verifier, body);
        let callback: unknown;
        try {
          callback = JSON.parse(body.toString('utf8'));
        } catch {
          throw new BadRequest('the callback body must be JSON');
        }
        const kind = String(req.query.kind ?? '') as VerificationKind;
        const run = VERIFICATION_KINDS.includes(kind)
          ? await deps.runs.get(String(req.query.verificationId ?? ''), [verifier.communityId])
          : undefined;
        const waiting = run?.pending?.[kind];
        if (run?.status === 'completed' || run?.status === 'failed')
          return void res.status(202).json({ status: 'not_pending' });
        if (!run || !waiting || waiting.verifier !== verifier.tag)
          throw new NotFound('no pending verification of this verifier matches verificationId and kind');
        const reference = (waiting.followUp as { reference?: unknown } | undefined)?.reference;
        const followUpId = randomUUID();
        const secrets: FollowUpSecrets = { config: verifier.config, reference: String(reference ?? '') };
        const job: FollowUpJob = {
          followUpId,
          verificationId: run.id,
          kind,
          verifier: { id: verifier.id, tag: verifier.tag, type: verifier.type, connectorUrl: verifier.connectorUrl },
          sealed: deps.box.seal(JSON.stringify(secrets), followUpId),
          answerTo: deps.answerTo,
          how: 'callback',
          deadline: Date.now() + deps.followUpMs,
          pollAt: Date.now(),
          attempt: 0,
          callback,
        };
        await deps.broker.publish('', followUpQueue(verifier.type, deps.queuePrefix), job).catch((err: unknown) => {
          // no worker of the type ever declared its queue: the provider should try again later
          if (err instanceof UnroutableMessageError) throw new Unavailable('no connector worker takes follow-ups of this type now; retry later', 30);
          throw err;
        });
        res.status(202).json({ status: 'accepted' });
      },
    },
  ]; // prettier-ignore
}
