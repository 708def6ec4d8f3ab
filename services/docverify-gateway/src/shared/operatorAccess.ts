// Who may do what with review cases and erasure (DESIGN 2.5, the roles' matrix of issue 28): reads
// by an operator of the community or a manager licence of it; the person's data, note texts and the
// resubmission's link by reviewers (or a licence); claims, notes and decisions by reviewing
// operators only, with their bearer token; erasure by an admin operator who signed in within the
// last 5 minutes (the matrix's recent login; the console sends them to sign in again) or a manager
// licence; so are edits of a community's verifiers and verification configs.
import {
  credentialsOf,
  fromParam,
  OPERATOR_ROLES,
  operatorOf,
  operatorOrCredentials,
  requireOperator,
  type CredentialAuth,
  type Operator,
  type OperatorRole,
  type OperatorTokens,
} from '@idv/auth';
import type { AuditEntry } from '@idv/platform';
import type { Response } from 'express';
import { MANAGER_LEVELS } from './community.ts';

/** The queue and a case without personal data: every operator role. */
export const CASE_READERS = OPERATOR_ROLES;
/** A case's personal data and images, claims, notes and decisions. */
export const REVIEWERS: readonly OperatorRole[] = ['reviewer', 'senior_reviewer', 'admin'];

export interface ReviewAccessDeps {
  auth: CredentialAuth;
  operators: OperatorTokens;
}

const community = fromParam('communityId');

/** How recent an operator's sign-in must be for a sensitive action: an erasure, an edit of a verifier or config. */
export const RECENT_LOGIN_MS = 5 * 60_000;

/**
 * An operator with one of `roles` on the path's community (signed in within `recentLoginMs` when
 * given: 401 with a step-up challenge otherwise), or a manager licence of it.
 */
export const operatorOrLicence = (
  deps: ReviewAccessDeps,
  roles: readonly OperatorRole[],
  recentLoginMs?: number,
) =>
  operatorOrCredentials(
    deps.operators,
    { roles, community, ...(recentLoginMs === undefined ? {} : { recentLoginMs }) },
    deps.auth.require({ levels: MANAGER_LEVELS, community: { id: community } }),
  );

/** Any operator, or any valid licence (what is not a community's: the reason codes). */
export const anyOperatorOrLicence = (deps: ReviewAccessDeps) =>
  operatorOrCredentials(deps.operators, { roles: OPERATOR_ROLES }, deps.auth.require());

/** An operator's bearer token only, with one of `roles` on the path's community. */
export const operatorOnly = (deps: ReviewAccessDeps, roles: readonly OperatorRole[]) =>
  requireOperator(deps.operators, { roles, community });

/**
 * Whether the caller reads what a case keeps sealed (note texts, the resubmission's link): a
 * licence or a reviewing operator; viewers and auditors do not.
 */
export function readsCaseTexts(res: Response): boolean {
  const operator = operatorOf(res);
  return !operator || operator.roles.some((role) => REVIEWERS.includes(role));
}

/** The audit log's name for whoever made the request. */
export function actorOf(res: Response): string {
  const operator = operatorOf(res);
  return operator ? `operator:${operator.username}` : `licence:${credentialsOf(res).licence.id}`;
}

/** An admin operator of the path's community who signed in recently, or a manager licence. */
export const adminOrLicence = (deps: ReviewAccessDeps) =>
  operatorOrLicence(deps, ['admin'], RECENT_LOGIN_MS);

/**
 * The audit row of an update of a community's `thing` (a verifier, a config) by whoever made the
 * request: which members the body named, never their values (a config holds secrets).
 */
export const changeAudit = (
  res: Response,
  action: string,
  thing: { id: string; communityId: string },
  changes: object,
): AuditEntry => ({
  actor: actorOf(res),
  action,
  communityId: thing.communityId,
  subject: { kind: action.split('.')[0]!, id: thing.id },
  details: { members: Object.keys(changes).sort() },
});

/** The operator of an operator-only route (its guard ran). */
export const theOperator = (res: Response): Operator => operatorOf(res)!;
