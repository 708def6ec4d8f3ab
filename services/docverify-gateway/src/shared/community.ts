// What the verifier and verification-config routes share: the community of the path, and the
// refusal of members an update may not change.
import { BadRequest, NotFound } from '@idv/http';
import type { Community, TenantStore } from '@idv/platform';
import type { Request } from 'express';

export const MANAGER_LEVELS = ['system', 'service', 'service_ext'] as const;

/** The community named by :communityId (the licence check ran before); 404 when it does not exist. */
export function communityOfPath(tenants: TenantStore) {
  return async (req: Request): Promise<Community> => {
    const found = await tenants.findCommunityById(String(req.params.communityId));
    if (!found) throw new NotFound(`community ${String(req.params.communityId)} not found`);
    return found;
  };
}

export function refuseFixedMembers(body: unknown, fixed: readonly string[]): void {
  if (!body || typeof body !== 'object') return;
  const present = fixed.filter((member) => member in body);
  if (present.length > 0) {
    throw new BadRequest(
      `${present.join(' and ')} cannot be changed by update`,
      present.map((member) => ({ path: `/${member}`, message: 'cannot be changed' })),
    );
  }
}
