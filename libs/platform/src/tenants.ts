// Tenants and their communities.
import type { Knex } from '@idv/db';

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

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function rethrowUnique(err: unknown, message: string): never {
  if ((err as { code?: string }).code === '23505') throw new DuplicateInPlatform(message);
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
    if (!(await this.findTenant(tenantId)))
      throw new NotFoundInPlatform(`tenant ${tenantId} does not exist`);
    const [row] = await this.db('platform.communities')
      .insert({ tenant_id: tenantId, name })
      .returning(['id', 'name', 'tenant_id as tenantId'])
      .catch((err: unknown) => rethrowUnique(err, `community "${name}" already exists`));
    return row as Community;
  }

  /** By id or by name: the OAuth service addresses communities by name, the others by id. */
  async findCommunity(idOrName: string): Promise<Community | undefined> {
    const query = this.db('platform.communities').first('id', 'name', 'tenant_id as tenantId');
    return UUID.test(idOrName) ? query.where({ id: idOrName }) : query.where({ name: idOrName });
  }
}
