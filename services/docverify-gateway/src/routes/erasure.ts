// POST /erasure/community/{communityId} (DESIGN 2.5): a manager licence of the community erases a
// verification or a session by destroying its data keys (store/erasures.ts). The answer is the
// tombstone, the same on every later call.
import { credentialsOf, fromParam, type CredentialAuth } from '@idv/auth';
import { ErasureRequest, ErasureResponse, type EventEnvelope } from '@idv/contracts';
import { NotFound, parseBody, type Route } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import type { ErasureStore } from '../store/erasures.ts';
import { communityOfPath, MANAGER_LEVELS } from './community.ts';

export interface ErasureDeps {
  auth: CredentialAuth;
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
      guards: [
        deps.auth.require({ levels: MANAGER_LEVELS, community: { id: fromParam('communityId') } }),
      ],
      doc: {
        summary:
          'erases a verification or a session of the community: its data keys destroyed, its rows deleted, a tombstone kept (ids, counts, digests); again: the same tombstone',
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
        const erasedBy = `licence:${credentialsOf(res).licence.id}`;
        const erased = await deps.erasures.erase({ id, tenantId }, subject, erasedBy);
        if (!erased) throw new NotFound(`${subject.kind} ${subject.id} not found`);
        deps.flush(erased.events);
        res.json({ erased: true, tombstone: erased.tombstone } satisfies ErasureResponse);
      },
    },
  ];
}
