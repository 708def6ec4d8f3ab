// The operator rows of the authorisation matrix: every operation an operator's bearer token is a
// credential of, with the roles that may call it (issue 28's role table, as each route's guard
// and, for the second review, the four-eyes rule implement it), and the callers it is tried with:
// each role of the world's community, an operator with every role on another community only, and
// broken or no tokens.
// Every matrix role is ONE account (one sub) whose grants differ between its tokens: the case a
// refused caller meets is claimed by that very account, so only the role or community check
// stands between the caller and a 2xx, and a loosened guard shows.
import type { OperatorRole } from '@idv/auth';
import type { OperatorWorld } from './operatorWorld.ts';

const MATRIX_ROLES = ['viewer', 'auditor', 'reviewer', 'senior_reviewer', 'admin'] as const;
export const OPERATOR_CALLERS = [
  ...MATRIX_ROLES,
  'elsewhere',
  'unknown',
  'malformed',
  'none',
] as const;
export type OperatorCaller = (typeof OPERATOR_CALLERS)[number];
/** the shared account's id; `first` (another account) makes four-eyes cases' first decisions */
const ACCOUNT = 'op-matrix';
const FIRST_REVIEWER = 'first';

/** What a call starts from: a case in a state (claimed by the account), a delivery, a verifier or a config. */
type Target = 'open' | 'claimed' | 'awaitingSecond' | 'delivery' | 'verifier' | 'config';
/** A target's path parameters (caseId, or webhookId and deliveryId) and a case's verificationId. */
type TargetParams = Record<string, string>;

export interface OperatorAccess {
  service: 'docverify' | 'webhooks';
  roles: readonly OperatorRole[];
  target?: Target;
  /** the call moves its target on: every allowed caller gets a fresh one (refused ones share one) */
  moves?: boolean;
  /** the path names no community (an operator of any community is allowed) */
  unscoped?: boolean;
  success?: 200 | 202;
  body?: (target: TargetParams) => unknown;
}

const ALL = MATRIX_ROLES;
const REVIEWERS: readonly OperatorRole[] = ['reviewer', 'senior_reviewer', 'admin'];
const SENIORS: readonly OperatorRole[] = ['senior_reviewer', 'admin'];
const ADMIN: readonly OperatorRole[] = ['admin'];
const CASE = 'POST /review/community/{communityId}/cases/{caseId}';
const approve = () => ({ decision: 'approve', reasonCode: 'identity_confirmed' });

/** THE operator table, keyed by method and OpenAPI path (a note after it for a second row). */
export const OPERATOR_ACCESS: Record<string, OperatorAccess> = {
  'GET /review/reasons': { service: 'docverify', roles: ALL, unscoped: true },
  'GET /review/community/{communityId}/cases': { service: 'docverify', roles: ALL },
  'GET /review/community/{communityId}/cases/{caseId}': {
    service: 'docverify',
    roles: ALL,
    target: 'open',
  },
  'GET /review/community/{communityId}/cases/{caseId}/data': {
    service: 'docverify',
    roles: REVIEWERS,
    target: 'open',
  },
  'GET /review/community/{communityId}/cases/{caseId}/images/{name}': {
    service: 'docverify',
    roles: REVIEWERS,
    target: 'open',
  },
  [`${CASE}/claim`]: { service: 'docverify', roles: REVIEWERS, target: 'open', moves: true },
  [`${CASE}/release`]: { service: 'docverify', roles: REVIEWERS, target: 'claimed', moves: true },
  [`${CASE}/notes`]: {
    service: 'docverify',
    roles: REVIEWERS,
    target: 'open',
    body: () => ({ text: 'Testy McTestface looks like the photo' }),
  },
  [`${CASE}/decision`]: {
    service: 'docverify',
    roles: REVIEWERS,
    target: 'claimed',
    moves: true,
    body: approve,
  },
  // the four-eyes rule of the decision route's use case: a second review needs a senior
  [`${CASE}/decision (second review)`]: {
    service: 'docverify',
    roles: SENIORS,
    target: 'awaitingSecond',
    moves: true,
    body: approve,
  },
  // the body names the target's verification; a refused caller's is one that exists too
  'POST /erasure/community/{communityId}': {
    service: 'docverify',
    roles: ADMIN,
    target: 'open',
    moves: true,
    body: (c) => ({ verificationId: c.verificationId }),
  },
  'POST /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}/delivery/{deliveryId}/redeliver':
    { service: 'webhooks', roles: ADMIN, target: 'delivery', success: 202 },
  // the console's edits (an admin who signed in recently: the stand-in's tokens are fresh)
  'PATCH /verifier/community/{communityId}/{idOrTag}': {
    service: 'docverify',
    roles: ADMIN,
    target: 'verifier',
    body: () => ({ name: 'provider' }),
  },
  'PATCH /verificationConfig/community/{communityId}/{idOrTag}': {
    service: 'docverify',
    roles: ADMIN,
    target: 'config',
    body: () => ({ name: 'always reviewed' }),
  },
};

/** Names the matrix's operators in the stand-in, now that the communities exist. */
export function grantOperators(world: OperatorWorld): void {
  const ours = [world.platform.community.id];
  for (const role of MATRIX_ROLES)
    world.operators.set(role, { roles: [role], communities: ours, sub: ACCOUNT });
  // every role, on another community only
  world.operators.set('elsewhere', {
    roles: [...MATRIX_ROLES],
    communities: [world.platform.otherCommunity.id],
    sub: ACCOUNT,
  });
  world.operators.set(FIRST_REVIEWER, { roles: ['reviewer'], communities: ours });
}

export function operatorHeaders(world: OperatorWorld, caller: OperatorCaller) {
  if (caller === 'none') return {};
  if (caller === 'unknown') return { authorization: 'Bearer token-nobody' };
  // an admin's real token with more after it: a lenient parser would let the admin in
  if (caller === 'malformed')
    return { authorization: `Bearer ${world.operators.token('admin')} and more` };
  return world.operators.bearer(caller);
}

/** The expected status, from the table alone. */
export function expectedFor(access: OperatorAccess, caller: OperatorCaller): number {
  if (caller === 'unknown' || caller === 'malformed' || caller === 'none') return 401;
  const success = access.success ?? 200;
  if (caller === 'elsewhere') return access.unscoped ? success : 403;
  return access.roles.includes(caller) ? success : 403;
}

/**
 * The targets of the calls: fresh for an allowed caller of a call that moves it, one shared per
 * kind otherwise. A case is claimed by the matrix's account (as its reviewer) or, waiting for a
 * second review, was first decided by another account.
 */
export function operatorTargets(world: OperatorWorld) {
  const make = async (target: Target): Promise<TargetParams> => {
    if (target === 'open') return { ...(await world.openCase()) };
    if (target === 'claimed') return { ...(await world.claimedCase('reviewer')) };
    if (target === 'awaitingSecond') return { ...(await world.awaitingSecond(FIRST_REVIEWER)) };
    if (target === 'verifier') return { idOrTag: world.verifierTag };
    if (target === 'config') return { idOrTag: world.reviewConfigTag };
    return { ...(await world.delivery()) };
  };
  const shared = new Map<Target, Promise<TargetParams>>();
  return (access: OperatorAccess, allowed: boolean): Promise<TargetParams> => {
    const { target } = access;
    if (!target) return Promise.resolve({});
    if (allowed && access.moves) return make(target);
    if (!shared.has(target)) shared.set(target, make(target));
    return shared.get(target)!;
  };
}
