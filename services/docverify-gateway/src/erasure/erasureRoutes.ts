// POST /erasure/community/{communityId} (DESIGN 2.5): a manager licence of the community, or an
// admin operator with their bearer token from a sign-in of the last 5 minutes, erases a
// verification or a session by destroying its data keys (erasureStore.ts), its review case too.
// The answer is the tombstone, the same on every later call.
import type { CredentialAuth, OperatorTokens } from '@idv/auth';
import { ErasureRequest, ErasureResponse, type EventEnvelope } from '@idv/contracts';
import { NotFound, parseBody, type Route } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import type { ErasureStore } from './erasureStore.ts';
import { communityOfPath } from '../shared/community.ts';
import { actorOf, adminOrLicence } from '../shared/operatorAccess.ts';

export interface ErasureDeps {
  auth: CredentialAuth;
  operators: OperatorTokens;
  tenants: TenantStore;
  erasures: ErasureStore;
  /** sends the events an erasure stored in the outbox */
  flush: (events: EventEnvelope[]) => void;
}

export function erasureRoutes(deps: ErasureDeps): Route[] {
  const community = communityOfPath(deps.tenants);
  return [
    {
      method: 'POST',
      path: '/erasure/community/:communityId',
      guards: [adminOrLicence(deps)],
      doc: {
        summary:
          'erases a verification or a session of the community (a manager licence, or an admin operator signed in within the last 5 minutes: otherwise 401 with a WWW-Authenticate step-up challenge, max_age=300): its data keys destroyed, its rows deleted (a review case it belongs to closed as erased, with everything the case held), a tombstone kept (ids, counts, digests); again: the same tombstone',
        body: ErasureRequest,
        response: ErasureResponse,
      },
      handler: async (req, res) => {
        const body = parseBody(ErasureRequest, req.body);
        const { id, tenantId } = await community(req);
        const subject =
          'sessionId' in body
            ? ({ kind: 'session', id: body.sessionId } as const)
            : ({ kind: 'verification', id: body.verificationId } as const);
        const erasedBy = actorOf(res);
        const erased = await deps.erasures.erase({ id, tenantId }, subject, erasedBy);
        if (!erased) throw new NotFound(`${subject.kind} ${subject.id} not found`);
        deps.flush(erased.events);
        res.json({ erased: true, tombstone: erased.tombstone } satisfies ErasureResponse);
      },
    },
  ];
}
