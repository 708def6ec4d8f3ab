// Reads of docverify's verifiers and verification configs for the console. A verifier's config is
// sealed; it is opened here only to be shown with every secret member masked, or, for an admin's
// audited reveal, whole. Its connectorUrl is masked the same way, to its origin (as webhook targets
// are): a path or query may carry a tenant's key.
import { maskSecrets, SECRET_MASK } from '@idv/contracts';
import type { Knex } from '@idv/db';
import type { Keyring } from '@idv/platform';

interface VerifierRow {
  id: string;
  community_id: string;
  tag: string;
  name: string;
  type: string;
  connector_url: string;
  config_sealed: string;
  created_at: Date;
  updated_at: Date;
}

const openConfig = async (keys: Keyring, row: VerifierRow): Promise<unknown> =>
  JSON.parse(await keys.open(row.config_sealed, `verifier:${row.id}`)) as unknown;

/** What viewers see of a connector's address: its origin (a URL that does not parse: masked). */
const originOf = (url: string): string => URL.parse(url)?.origin ?? SECRET_MASK;

const verifierOf = (row: VerifierRow, config: unknown, connectorUrl: string) => ({
  verifierId: row.id,
  communityId: row.community_id,
  tag: row.tag,
  name: row.name,
  type: row.type,
  connectorUrl,
  config,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export async function listVerifiers(db: Knex, keys: Keyring, communities: string[] | undefined) {
  const query = db('docverify.verifiers').select('*').orderBy(['community_id', 'tag']).limit(500);
  if (communities) query.whereIn('community_id', communities);
  const rows = (await query) as VerifierRow[];
  return Promise.all(
    rows.map(async (row) =>
      verifierOf(
        row,
        maskSecrets(await openConfig(keys, row).catch(() => ({ unreadable: true }))),
        originOf(row.connector_url),
      ),
    ),
  );
}

/** One verifier with its config whole; undefined when there is none of that id. */
export async function revealVerifier(db: Knex, keys: Keyring, verifierId: string) {
  const row = (await db('docverify.verifiers').where({ id: verifierId }).first()) as
    VerifierRow | undefined;
  return row && verifierOf(row, await openConfig(keys, row), row.connector_url);
}

export async function listConfigs(db: Knex, communities: string[] | undefined) {
  const query = db('docverify.verification_configs')
    .select('id', 'community_id', 'tag', 'name', 'arrays', 'settings', 'created_at', 'updated_at')
    .orderBy(['community_id', 'tag'])
    .limit(500);
  if (communities) query.whereIn('community_id', communities);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((row) => ({
    configId: row.id as string,
    communityId: row.community_id as string,
    dvcId: row.tag as string,
    name: row.name as string,
    arrays: row.arrays as unknown,
    settings: maskSecrets(row.settings),
    createdAt: (row.created_at as Date).toISOString(),
    updatedAt: (row.updated_at as Date).toISOString(),
  }));
}

const scopeOf = async (db: Knex, table: string, id: string) => {
  const row = (await db(table).where({ id }).first('community_id')) as
    { community_id: string } | undefined;
  return row && { communityId: row.community_id };
};

/** The community of a verifier, for an edit; undefined when there is none of that id. */
export const verifierScope = (db: Knex, verifierId: string) =>
  scopeOf(db, 'docverify.verifiers', verifierId);

/** The community of a verification config, for an edit; undefined when there is none. */
export const configScope = (db: Knex, configId: string) =>
  scopeOf(db, 'docverify.verification_configs', configId);
