// The caller's session API (DESIGN 2.4, the vendor helper's calls): create answers plain JSON,
// result and cancel answer {data: encrypt(view), publicKey}. Any valid licence creates, within its
// communities; result and cancel are its own (callerSessions.ts). Credential headers and
// encrypted bodies as for /verify.
import { credentialsOf, openEncryptedBody, type CredentialAuth } from '@idv/auth';
import {
  EncryptedAnswer,
  SessionCreate,
  SessionCreated,
  SessionRef,
  VerifyBody,
  wireStatusOf,
} from '@idv/contracts';
import type { Route } from '@idv/http';
import { cancelSession, sessionResult } from './callerSessions.ts';
import { createSession } from './createSession.ts';
import type { SessionDeps } from './deps.ts';
import { scopeOf, sendEncrypted } from '../shared/sendEncrypted.ts';

export interface SessionRouteDeps extends SessionDeps {
  auth: CredentialAuth;
}

export function sessionRoutes(deps: SessionRouteDeps): Route[] {
  const guards = [deps.auth.require()];
  return [
    {
      method: 'POST',
      path: '/document_share_session/create',
      guards,
      doc: {
        summary:
          'creates a verification session for a config (dvcID) whose kinds can run its journey: body {data: encrypt({dvcID, sessionRequest})}, answer in plain JSON {sessionId, url, status, state, expiresAt}; url is the capture page, its token the only credential',
        body: VerifyBody,
        response: SessionCreated,
      },
      handler: async (req, res) => {
        const credentials = credentialsOf(res);
        const input = openEncryptedBody(credentials, req.body, SessionCreate);
        const { session, url } = await createSession(
          deps,
          scopeOf(credentials.licence),
          input,
          credentials.licence.id,
        );
        res.json({
          sessionId: session.id,
          url,
          status: wireStatusOf(session.status),
          state: session.status,
          expiresAt: session.expiresAt.toISOString(),
        });
      },
    },
    {
      method: 'POST',
      path: '/document_share_session/result',
      guards,
      doc: {
        summary:
          'the session: status INPROGRESS until it ends (a human review included: with `resubmission` {sessionId, url, expiresAt} while the person is asked to capture again, the url to send them), then COMPLETED (with the result /verify gives, kept until retrieved), FAILED, EXPIRED, ABANDONED, CANCELLED or DECLINED (the person declined on the capture page); body {data: encrypt({dvcID, sessionId})}, answer {data: encrypt(view), publicKey}. Only the licence that created the session reads its result (and consumes it, with its images kept until then); a system licence sees the state only; other licences get 404',
        body: VerifyBody,
        response: EncryptedAnswer,
      },
      handler: async (req, res) => {
        const credentials = credentialsOf(res);
        const ref = openEncryptedBody(credentials, req.body, SessionRef);
        const { licence } = credentials;
        const view = await sessionResult(deps, scopeOf(licence), licence, ref);
        sendEncrypted(res, credentials, view);
      },
    },
    {
      method: 'POST',
      path: '/document_share_session/cancel',
      guards,
      doc: {
        summary:
          'cancels a session not yet submitted (409 once submitted or ended): body {data: encrypt({dvcID, sessionId})}, answer {data: encrypt(view), publicKey}',
        body: VerifyBody,
        response: EncryptedAnswer,
        errors: [409],
      },
      handler: async (req, res) => {
        const credentials = credentialsOf(res);
        const ref = openEncryptedBody(credentials, req.body, SessionRef);
        const { licence } = credentials;
        const view = await cancelSession(deps, scopeOf(licence), licence, ref);
        sendEncrypted(res, credentials, view);
      },
    },
  ];
}
