// Tenants and their communities.
import { isUniqueViolation, type Knex } from '@idv/db';

export interface Tenant {
  id: string;
  name: string;
}

export interface Community {
  id: string;
  name: string;
  tenantId: string;
}

export class NotFoundInPlatform extends Error {
  override name = 'NotFoundInPlatform';
}

export class DuplicateInPlatform extends Error {
  override name = 'DuplicateInPlatform';
}

/** A value the platform refuses to store (a community name shaped like an id). */
export class InvalidInPlatform extends Error {
  override name = 'InvalidInPlatform';
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function rethrowUnique(err: unknown, message: string): never {
  if (isUniqueViolation(err)) throw new DuplicateInPlatform(message);
  throw err;
}

export class TenantStore {
  constructor(private readonly db: Knex) {}

  async createTenant(name: string): Promise<Tenant> {
    const [row] = await this.db('platform.tenants')
      .insert({ name })
      .returning(['id', 'name'])
      .catch((err: unknown) => rethrowUnique(err, `tenant "${name}" already exists`));
    return row as Tenant;
  }

  async findTenant(id: string): Promise<Tenant | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.db('platform.tenants').where({ id }).first('id', 'name');
  }

  async createCommunity(tenantId: string, name: string): Promise<Community> {
    // paths name communities by id (docverify, webhooks) or by name (oauth): a name shaped like
    // an id could pass for another community wherever the two were ever confused
    if (UUID.test(name))
      throw new InvalidInPlatform(`community name "${name}" is shaped like an id`);
    if (!(await this.findTenant(tenantId)))
      throw new NotFoundInPlatform(`tenant ${tenantId} does not exist`);
    const [row] = await this.db('platform.communities')
      .insert({ tenant_id: tenantId, name })
      .returning(['id', 'name', 'tenant_id as tenantId'])
      .catch((err: unknown) => rethrowUnique(err, `community "${name}" already exists`));
    return row as Community;
  }

  // Two lookups, never one guessing from the value's shape: docverify and webhooks paths carry
  // ids, oauth issuers carry names, and a name may look like another community's id.

  /** By id only; a value that is no UUID finds nothing. */
  async findCommunityById(id: string): Promise<Community | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.db('platform.communities')
      .where({ id })
      .first('id', 'name', 'tenant_id as tenantId');
  }

  /** By name only (the oauth issuer paths and the oauth admin commands). */
  async findCommunityByName(name: string): Promise<Community | undefined> {
    return this.db('platform.communities')
      .where({ name })
      .first('id', 'name', 'tenant_id as tenantId');
  }
}
