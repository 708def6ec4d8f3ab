// The roles of operators (accounts of the operators community) and the communities they act on.
import type { OperatorRole } from '@idv/auth';
import type { Knex } from '@idv/db';

// the roles are libs/auth's, which checks them on every operator's token
export { OPERATOR_ROLES, type OperatorRole } from '@idv/auth';

export interface OperatorGrant {
  roles: OperatorRole[];
  /** community ids; empty: every community */
  communities: string[];
}

const TABLE = 'oauth.operator_roles';

export class OperatorStore {
  constructor(private readonly db: Knex) {}

  async set(communityId: string, accountId: string, grant: OperatorGrant, trx?: Knex) {
    await (trx ?? this.db)(TABLE)
      .insert({
        community_id: communityId,
        account_id: accountId,
        roles: grant.roles,
        communities: grant.communities,
        updated_at: this.db.fn.now(),
      })
      .onConflict(['community_id', 'account_id'])
      .merge();
  }

  async find(communityId: string, accountId: string): Promise<OperatorGrant | undefined> {
    const row = (await this.db(TABLE)
      .where({ community_id: communityId, account_id: accountId })
      .first('roles', 'communities')) as OperatorGrant | undefined;
    return row ? { roles: row.roles, communities: row.communities } : undefined;
  }
}
