// POST /verify: decrypt, validate every rule of spec 2.2, run, answer {data: encrypt(result), publicKey}.
import { credentialsOf, encryptedAnswer, type CredentialAuth } from '@idv/auth';
import type { Licence } from '@idv/platform';
import { EncryptedAnswer, VerifyBody, VerifyRequest } from '@idv/contracts';
import { DecryptError, decrypt } from '@idv/crypto';
import { BadRequest, NotFound, parseBody, type Route } from '@idv/http';
import { retentionPlan } from '../domain/retention.ts';
import { checkVerifyRules } from '../domain/verifyRules.ts';
import type { VerificationStore } from '../store/verifications.ts';
import type { VerificationConfigStore } from '../store/verificationConfigs.ts';
import { runVerification, type RunDeps } from '../verification/runVerification.ts';
import { verificationEvents } from '../verification/events.ts';
import type { EventOutbox } from '@idv/db';
import type { EventEnvelope } from '@idv/contracts';

export interface VerifyRouteDeps extends RunDeps {
  auth: CredentialAuth;
  outbox: EventOutbox<EventEnvelope>;
  configs: VerificationConfigStore;
  verifications: VerificationStore;
  /** ms a /verify may wait for its connectors */
  deadlineMs: number;
}

/** The communities a licence may read: every one for a system licence. */
function scopeOf(licence: Licence): string[] | 'all' {
  return licence.level === 'system' ? 'all' : licence.communities.map((c) => c.id);
}

function openRequest(sharedKey: Buffer, data: string): unknown {
  let plaintext: string;
  try {
    plaintext = decrypt(sharedKey, data);
  } catch (err) {
    if (err instanceof DecryptError)
      throw new BadRequest('data does not decrypt with the shared key', [
        { path: '/data', message: err.message },
      ]);
    throw err;
  }
  try {
    return JSON.parse(plaintext);
  } catch {
    throw new BadRequest('data does not hold JSON', [
      { path: '/data', message: 'is not JSON once decrypted' },
    ]);
  }
}

export function verifyRoutes(deps: VerifyRouteDeps): Route[] {
  return [
    {
      method: 'POST',
      path: '/verify',
      doc: {
        summary:
          'verifies a document or person: body {data: encrypt(request of spec 2.2)}, answer {data: encrypt(result), publicKey}',
        body: VerifyBody,
        response: EncryptedAnswer,
        errors: [503],
      },
      guards: [deps.auth.require()],
      handler: async (req, res) => {
        const deadline = Date.now() + deps.deadlineMs;
        const credentials = credentialsOf(res);
        const body = parseBody(VerifyBody, req.body);
        const request = parseBody(VerifyRequest, openRequest(credentials.sharedKey, body.data));
        const issues = checkVerifyRules(request);
        if (issues.length > 0)
          throw new BadRequest(
            `request is invalid: ${issues[0]!.path} ${issues[0]!.message}`,
            issues,
          );

        const configs = await deps.configs.findCached(scopeOf(credentials.licence), request.dvcID);
        if (configs.length === 0)
          throw new NotFound(`verification config ${request.dvcID} not found`);
        if (configs.length > 1)
          throw new BadRequest(
            `dvcID ${request.dvcID} names configs in several communities: use its id`,
          );

        const config = configs[0]!;
        const result = await runVerification(deps, request, config, deadline);
        // the result (if kept) and the events it owes are stored before the answer
        const events = verificationEvents(config, result);
        await deps.verifications.keep(
          config.communityId,
          result,
          retentionPlan(config.settings, new Date()),
          events,
        );
        res.json(encryptedAnswer(credentials, result));
        // after the answer, so the caller does not wait for the broker; the outbox keeps what fails
        void deps.outbox.flush(events);
      },
    },
    {
      method: 'GET',
      path: '/verification/:verificationId',
      doc: {
        summary: 'a kept verification result (per the data retention), encrypted for the caller',
        response: EncryptedAnswer,
      },
      guards: [deps.auth.require()],
      handler: async (req, res) => {
        const credentials = credentialsOf(res);
        const kept = await deps.verifications.retrieve(
          String(req.params.verificationId),
          scopeOf(credentials.licence),
        );
        if (!kept)
          throw new NotFound('verification not found: never kept, already retrieved or expired');
        res.json(encryptedAnswer(credentials, kept.result));
      },
    },
  ];
}
