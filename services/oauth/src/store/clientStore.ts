// OAuth clients per community: created by operators, read by oidc-provider through an adapter.
import { randomBytes } from 'node:crypto';
import type { Knex } from '@idv/db';
import type { Keyring, KeyOwner, SealedColumn } from '@idv/platform';
import type { Adapter, AdapterPayload, ResponseType } from 'oidc-provider';
import { holdsNul } from './storableText.ts';

const TABLE = 'oauth.clients';

export const CLIENT_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
] as const;
export type ClientGrantType = (typeof CLIENT_GRANT_TYPES)[number];

export interface NewClient {
  communityId: string;
  redirectUris: string[];
  grantTypes: ClientGrantType[];
  /** client_name: what the sign-in page calls the application */
  name?: string;
  /** the scopes it may ask for, space-separated (oidc-provider refuses others: invalid_scope) */
  scope?: string;
}

interface ClientRow {
  client_id: string;
  secret_sealed: string;
  metadata: {
    redirect_uris: string[];
    grant_types: string[];
    response_types: ResponseType[];
    client_name?: string;
    scope?: string;
  };
}

const secretContext = (communityId: string, clientId: string) =>
  `oauth-client:${communityId}:${clientId}`;

/** Clients are read on every token and introspection request; they change only by the CLI. */
const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;

/** whose data key seals a client's secret */
const keyOwner = (clientId: string): KeyOwner => ({ kind: 'oauth-client', id: clientId });

export class ClientStore {
  private readonly cache = new Map<string, { at: number; client: AdapterPayload | undefined }>();

  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
  ) {}

  /** The secret is shown once here; at rest it is sealed (client_secret_basic needs it back). */
  async create(client: NewClient): Promise<{ client_id: string; client_secret: string }> {
    const clientId = `cl_${randomBytes(12).toString('base64url')}`;
    const secret = randomBytes(32).toString('base64url');
    const interactive = client.grantTypes.includes('authorization_code');
    await this.db.transaction(async (trx) => {
      const context = secretContext(client.communityId, clientId);
      await trx(TABLE).insert({
        community_id: client.communityId,
        client_id: clientId,
        secret_sealed: await this.keys.sealFor(keyOwner(clientId), secret, context, trx),
        metadata: {
          redirect_uris: client.redirectUris,
          grant_types: client.grantTypes,
          response_types: interactive ? ['code'] : [],
          ...(client.name ? { client_name: client.name } : {}),
          ...(client.scope ? { scope: client.scope } : {}),
        },
      });
    });
    return { client_id: clientId, client_secret: secret };
  }

  /** Names the client (client_name) or, with null, takes its name away; false: no such client. */
  async rename(communityId: string, clientId: string, name: string | null): Promise<boolean> {
    const update =
      name === null
        ? this.db.raw("metadata - 'client_name'")
        : this.db.raw("jsonb_set(metadata, '{client_name}', to_jsonb(?::text))", [name]);
    const changed = await this.db(TABLE)
      .where({ community_id: communityId, client_id: clientId })
      .update({ metadata: update });
    this.cache.delete(`${communityId}|${clientId}`);
    return changed > 0;
  }

  async find(communityId: string, clientId: string): Promise<AdapterPayload | undefined> {
    if (holdsNul(clientId)) return undefined;
    const key = `${communityId}|${clientId}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS && hit.client) return hit.client;
    const client = await this.read(communityId, clientId);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    if (client) this.cache.set(key, { at: Date.now(), client });
    return client;
  }

  private async read(communityId: string, clientId: string): Promise<AdapterPayload | undefined> {
    const row: ClientRow | undefined = await this.db(TABLE)
      .where({ community_id: communityId, client_id: clientId })
      .first();
    if (!row) return undefined;
    const metadata: AdapterPayload = {
      client_id: row.client_id,
      client_secret: await this.keys.open(row.secret_sealed, secretContext(communityId, clientId)),
      token_endpoint_auth_method: 'client_secret_basic',
      ...row.metadata,
    };
    return metadata;
  }

  /** The read-only adapter oidc-provider uses for its Client model. */
  adapterFor(communityId: string): Adapter {
    const readOnly = async () => {
      throw new Error('clients are managed by the admin CLI');
    };
    return {
      find: (id) => this.find(communityId, id),
      upsert: readOnly,
      findByUid: async () => undefined,
      findByUserCode: async () => undefined,
      consume: readOnly,
      destroy: readOnly,
      revokeByGrantId: readOnly,
    };
  }
}

/** The sealed column of clients (legacySealed.ts). */
export const CLIENT_SEALED: SealedColumn[] = [
  {
    table: TABLE,
    column: 'secret_sealed',
    key: ['community_id', 'client_id'],
    owner: (row) => keyOwner(String(row.client_id)),
    context: (row) => secretContext(String(row.community_id), String(row.client_id)),
  },
];
