// ES256 signing keys per community, sealed at rest, rotated next -> current -> retired.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Knex } from '@idv/db';
import type { Keyring, KeyOwner, SealedColumn } from '@idv/platform';
import type { JWK } from 'oidc-provider';

const TABLE = 'oauth.signing_keys';

type KeyState = 'next' | 'current' | 'retired';

interface KeyRow {
  kid: string;
  state: KeyState;
  private_jwk_sealed: string;
}

const context = (communityId: string, kid: string) => `oauth-signing-key:${communityId}:${kid}`;

/** Only the current key signs; the others carry key_ops ['verify'], published for checking. */
const ORDER: Record<KeyState, number> = { current: 0, next: 1, retired: 2 };

/** whose data key seals a community's signing keys */
const keyOwner = (communityId: string): KeyOwner => ({
  kind: 'oauth-signing-keys',
  id: communityId,
});

export class SigningKeyStore {
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
  ) {}

  private async newKey(communityId: string, state: KeyState, trx?: Knex) {
    const kid = randomBytes(12).toString('base64url');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
    const sealed = await this.keys.sealFor(
      keyOwner(communityId),
      JSON.stringify(jwk),
      context(communityId, kid),
      trx,
    );
    return { community_id: communityId, kid, state, private_jwk_sealed: sealed };
  }

  /** The key set oidc-provider signs and publishes with; created on first use. */
  async keySet(communityId: string): Promise<JWK[]> {
    let rows = await this.rows(communityId);
    if (!rows.some((row) => row.state === 'current')) {
      await this.db(TABLE)
        .insert([await this.newKey(communityId, 'current'), await this.newKey(communityId, 'next')])
        .onConflict()
        .ignore();
      rows = await this.rows(communityId);
    }
    const sorted = rows.sort((a, b) => ORDER[a.state] - ORDER[b.state]);
    return Promise.all(
      sorted.map(async (row) => {
        const jwk = JSON.parse(
          await this.keys.open(row.private_jwk_sealed, context(communityId, row.kid)),
        ) as JWK;
        return row.state === 'current' ? jwk : { ...jwk, key_ops: ['verify'] };
      }),
    );
  }

  /** A short fingerprint of the key states, so a cached provider sees a rotation. */
  async fingerprint(communityId: string): Promise<string> {
    const rows: KeyRow[] = await this.db(TABLE)
      .where({ community_id: communityId })
      .orderBy('kid')
      .select('kid', 'state');
    return rows.map((row) => `${row.kid}:${row.state}`).join(',');
  }

  /**
   * next becomes current (it was published one rotation ago), current is retired and kept for
   * verification for `retainSeconds`, a fresh next is published, expired retired keys go.
   */
  async rotate(communityId: string, retainSeconds: number): Promise<{ current: string }> {
    await this.keySet(communityId);
    return this.db.transaction(async (trx) => {
      await trx(TABLE)
        .where({ community_id: communityId })
        .andWhere('retire_after', '<', trx.fn.now())
        .delete();
      const rows: KeyRow[] = await trx(TABLE).where({ community_id: communityId }).forUpdate();
      const next = rows.find((row) => row.state === 'next');
      if (!next) throw new Error('no published next key to promote');
      await trx(TABLE)
        .where({ community_id: communityId, state: 'current' })
        .update({ state: 'retired', retire_after: new Date(Date.now() + retainSeconds * 1000) });
      await trx(TABLE)
        .where({ community_id: communityId, kid: next.kid })
        .update({ state: 'current' });
      await trx(TABLE).insert(await this.newKey(communityId, 'next', trx));
      return { current: next.kid };
    });
  }

  private rows(communityId: string): Promise<KeyRow[]> {
    return this.db(TABLE)
      .where({ community_id: communityId })
      .andWhere((q) => q.whereNull('retire_after').orWhere('retire_after', '>', this.db.fn.now()));
  }
}

/** The sealed column of signing keys (legacySealed.ts). */
export const SIGNING_KEY_SEALED: SealedColumn[] = [
  {
    table: TABLE,
    column: 'private_jwk_sealed',
    key: ['community_id', 'kid'],
    owner: (row) => keyOwner(String(row.community_id)),
    context: (row) => context(String(row.community_id), String(row.kid)),
  },
];
