// Who a community trusts: proof signing keys, its external identity provider; plus replay and
// EAM context rows that live only as long as the proof or interaction they belong to.
import { createHash, randomBytes, type JsonWebKey } from 'node:crypto';
import type { Knex } from '@idv/db';
import type { JWK } from 'jose';
import type { ProofKey } from '../domain/proof.ts';

export interface ExternalIdp {
  issuer: string;
  audience: string;
  jwksUri: string;
}

export interface EamContext {
  oid: string;
  tid: string;
}

export class TrustStore {
  constructor(private readonly db: Knex) {}

  /**
   * secp256k1 public keys allowed to sign proofs: the community's trusted keys, named by their
   * kid, and the platform service keys, named by their keyId (base64 or base64url of X||Y).
   */
  async proofKeys(communityId: string): Promise<ProofKey[]> {
    const [own, platform] = await Promise.all([
      this.db('oauth.proof_keys').where({ community_id: communityId }).select('kid', 'public_jwk'),
      this.db('platform.service_keys').select('public_key'),
    ]);
    const fromService = platform.map((row: { public_key: string }): ProofKey => {
      const point = Buffer.from(row.public_key, 'base64');
      return {
        kids: [point.toString('base64'), point.toString('base64url')],
        jwk: {
          kty: 'EC',
          crv: 'secp256k1',
          x: point.subarray(0, 32).toString('base64url'),
          y: point.subarray(32, 64).toString('base64url'),
        },
      };
    });
    const trusted = own.map((row: { kid: string; public_jwk: JsonWebKey }): ProofKey => ({
      kids: [row.kid],
      jwk: row.public_jwk,
    }));
    return [...trusted, ...fromService];
  }

  async trustProofKey(communityId: string, kid: string, jwk: JWK): Promise<void> {
    await this.db('oauth.proof_keys')
      .insert({ community_id: communityId, kid, public_jwk: jwk })
      .onConflict(['community_id', 'kid'])
      .merge();
  }

  /** false when the jti was seen before: one INSERT decides between racing requests. */
  async useProof(communityId: string, jti: string, expiresAt: Date): Promise<boolean> {
    const inserted = await this.db('oauth.used_proofs')
      .insert({ community_id: communityId, jti, expires_at: expiresAt })
      .onConflict(['community_id', 'jti'])
      .ignore()
      .returning('jti');
    return inserted.length === 1;
  }

  async externalIdp(communityId: string): Promise<ExternalIdp | undefined> {
    const row = await this.db('oauth.external_idps').where({ community_id: communityId }).first();
    return row ? { issuer: row.issuer, audience: row.audience, jwksUri: row.jwks_uri } : undefined;
  }

  async setExternalIdp(communityId: string, idp: ExternalIdp): Promise<void> {
    await this.db('oauth.external_idps')
      .insert({
        community_id: communityId,
        issuer: idp.issuer,
        audience: idp.audience,
        jwks_uri: idp.jwksUri,
      })
      .onConflict('community_id')
      .merge();
  }

  /**
   * The reference of `context`, read from the IdP token `hint`: the one its first use made while it
   * lives (a replayed token adds no row), else a new one.
   */
  async saveEamContext(
    communityId: string,
    context: EamContext,
    ttlSeconds: number,
    hint: string,
  ): Promise<string> {
    const rows = (await this.db('oauth.eam_contexts')
      .insert({
        ref: randomBytes(18).toString('base64url'),
        community_id: communityId,
        ...context,
        hint_hash: createHash('sha256').update(hint).digest(),
        expires_at: new Date(Date.now() + ttlSeconds * 1000),
      })
      .onConflict(['community_id', 'hint_hash'])
      // an expired row of the same token is renewed (the sweep may not have come by yet)
      .merge({
        expires_at: this.db.raw('greatest(oauth.eam_contexts.expires_at, excluded.expires_at)'),
      })
      .returning('ref')) as { ref: string }[];
    return rows[0]!.ref;
  }

  async eamContext(communityId: string, ref: string): Promise<EamContext | undefined> {
    const row = await this.db('oauth.eam_contexts')
      .where({ community_id: communityId, ref })
      .andWhere('expires_at', '>', this.db.fn.now())
      .first();
    return row ? { oid: row.oid, tid: row.tid } : undefined;
  }

  async sweep(): Promise<void> {
    await this.db('oauth.used_proofs').where('expires_at', '<', this.db.fn.now()).delete();
    await this.db('oauth.eam_contexts').where('expires_at', '<', this.db.fn.now()).delete();
  }
}
