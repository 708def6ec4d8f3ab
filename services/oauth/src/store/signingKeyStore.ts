// ES256 signing keys per community, sealed at rest, rotated next -> current -> retired.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createSecretBox, type SecretBox } from '@idv/crypto';
import type { Knex } from '@idv/db';
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

export class SigningKeyStore {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Knex,
    masterKey: Buffer,
  ) {
    this.box = createSecretBox(masterKey);
  }

  private newKey(communityId: string, state: KeyState) {
    const kid = randomBytes(12).toString('base64url');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
    return {
      community_id: communityId,
      kid,
      state,
      private_jwk_sealed: this.box.seal(JSON.stringify(jwk), context(communityId, kid)),
    };
  }

  /** The key set oidc-provider signs and publishes with; created on first use. */
  async keySet(communityId: string): Promise<JWK[]> {
    let rows = await this.rows(communityId);
    if (!rows.some((row) => row.state === 'current')) {
      await this.db(TABLE)
        .insert([this.newKey(communityId, 'current'), this.newKey(communityId, 'next')])
        .onConflict()
        .ignore();
      rows = await this.rows(communityId);
    }
    return rows
      .sort((a, b) => ORDER[a.state] - ORDER[b.state])
      .map((row) => {
        const jwk = JSON.parse(
          this.box.open(row.private_jwk_sealed, context(communityId, row.kid)),
        );
        return row.state === 'current' ? jwk : { ...jwk, key_ops: ['verify'] };
      });
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
      await trx(TABLE).insert(this.newKey(communityId, 'next'));
      return { current: next.kid };
    });
  }

  private rows(communityId: string): Promise<KeyRow[]> {
    return this.db(TABLE)
      .where({ community_id: communityId })
      .andWhere((q) => q.whereNull('retire_after').orWhere('retire_after', '>', this.db.fn.now()));
  }
}
