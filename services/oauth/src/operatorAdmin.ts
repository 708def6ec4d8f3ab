// `operator create` (DESIGN 2.5): an account of the operators community with its roles and the
// communities it acts on; the community is made (under a tenant of its own) when it is missing.
// The operator enrols a second factor at the first sign-in: the community requires one.
import { randomBytes } from 'node:crypto';
import { ConflictError } from '@idv/errors';
import {
  appendAudit,
  DuplicateInPlatform,
  NotFoundInPlatform,
  TenantStore,
  type Community,
} from '@idv/platform';
import { OauthAdminError } from './admin.ts';
import type { SignInAdminContext } from './signInAdmin.ts';
import { AccountStore } from './store/accountStore.ts';
import { OPERATOR_ROLES, OperatorStore, type OperatorRole } from './store/operatorStore.ts';

/** The operators community, made with a tenant of its own when it does not exist yet. */
export async function operatorsCommunity(ctx: SignInAdminContext): Promise<Community> {
  const tenants = new TenantStore(ctx.db);
  const found = await tenants.findCommunityByName(ctx.operatorsCommunity);
  if (found) return found;
  const tenant = await tenants.createTenant(`platform-operators-${Date.now().toString(36)}`);
  return tenants.createCommunity(tenant.id, ctx.operatorsCommunity);
}

export async function createOperator(
  ctx: SignInAdminContext,
  input: { username: string; roles: string[]; communities: string[]; password?: string },
) {
  if (input.roles.length === 0) throw new OauthAdminError('give at least one --role');
  const unknown = input.roles.find((r) => !(OPERATOR_ROLES as readonly string[]).includes(r));
  if (unknown) throw new OauthAdminError(`--role must be one of ${OPERATOR_ROLES.join(', ')}`);
  const tenants = new TenantStore(ctx.db);
  for (const id of input.communities)
    if (!(await tenants.findCommunityById(id).catch(() => undefined)))
      throw new NotFoundInPlatform(`community ${id} does not exist`);
  const community = await operatorsCommunity(ctx);
  const password = input.password ?? randomBytes(15).toString('base64url');
  const roles = [...new Set(input.roles)] as OperatorRole[];
  const communities = [...new Set(input.communities)];
  const account = await new AccountStore(ctx.db)
    .create(community.id, input.username, password)
    .catch((err: unknown) => {
      if (err instanceof ConflictError)
        throw new DuplicateInPlatform(`operator ${input.username} exists already`);
      throw err;
    });
  await new OperatorStore(ctx.db).set(community.id, account.accountId, { roles, communities });
  await appendAudit(ctx.db, {
    actor: ctx.actor,
    action: 'operator.created',
    communityId: community.id,
    subject: { kind: 'oauth-account', id: account.accountId },
    details: { roles, communities },
  });
  return { username: input.username, password, roles, communities };
}
