// Operator actions behind the admin CLI's oauth-* commands; each names the community.
import type { Knex } from '@idv/db';
import { NotFoundInPlatform, TenantStore, type Community, type Keyring } from '@idv/platform';
import { LONGEST_SIGNED_TTL } from './providerConfig.ts';
import { AccountStore } from './store/accountStore.ts';
import { CLIENT_GRANT_TYPES, ClientStore, type ClientGrantType } from './store/clientStore.ts';
import { SigningKeyStore } from './store/signingKeyStore.ts';
import { TrustStore, type ExternalIdp } from './store/trustStore.ts';

export class OauthAdminError extends Error {
  override name = 'OauthAdminError';
}

export interface OauthAdminContext {
  db: Knex;
  /** the keyring client secrets and signing keys are sealed under */
  keyring: Keyring;
  /** OPERATORS_COMMUNITY (default `operators`): only its console client may ask for `operator` */
  operatorsCommunity?: string;
}

/** The scopes every client may ask for; the operators' console also `operator` (roles). */
const CLIENT_SCOPES = 'openid offline_access profile';

async function community(db: Knex, name: string): Promise<Community> {
  const found = await new TenantStore(db).findCommunityByName(name);
  if (!found) throw new NotFoundInPlatform(`community ${name} does not exist`);
  return found;
}

function httpUrl(value: string, what: string): string {
  const url = URL.parse(value);
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.hash) {
    throw new OauthAdminError(`${what} must be an http(s) URL without a fragment: ${value}`);
  }
  return value;
}

export async function createOauthClient(
  ctx: OauthAdminContext,
  input: {
    community: string;
    redirectUris: string[];
    grantTypes: string[];
    name?: string;
    /** the operator console's client: it alone may ask for the `operator` scope (roles) */
    console?: boolean;
  },
): Promise<{ client_id: string; client_secret: string }> {
  const grantTypes = input.grantTypes.length
    ? input.grantTypes
    : ['authorization_code', 'refresh_token'];
  for (const g of grantTypes) {
    if (!(CLIENT_GRANT_TYPES as readonly string[]).includes(g)) {
      throw new OauthAdminError(`--grant-type must be one of ${CLIENT_GRANT_TYPES.join(', ')}`);
    }
  }
  if (grantTypes.includes('authorization_code') && input.redirectUris.length === 0) {
    throw new OauthAdminError('authorization_code needs at least one --redirect-uri');
  }
  const redirectUris = input.redirectUris.map((uri) => httpUrl(uri, '--redirect-uri'));
  const operators = ctx.operatorsCommunity ?? 'operators';
  if (input.console && input.community !== operators)
    throw new OauthAdminError(`--console yes is for the console's client of ${operators} only`);
  const { id } = await community(ctx.db, input.community);
  return new ClientStore(ctx.db, ctx.keyring).create({
    communityId: id,
    redirectUris,
    grantTypes: [...new Set(grantTypes)] as ClientGrantType[],
    ...(input.name !== undefined ? { name: clientName(input.name) } : {}),
    scope: input.console ? `${CLIENT_SCOPES} operator` : CLIENT_SCOPES,
  });
}

/** A client's name as people will read it on the sign-in page: 1 to 100 printable characters. */
export function clientName(name: string): string {
  const trimmed = name.trim();
  // eslint-disable-next-line no-control-regex
  if (!trimmed || trimmed.length > 100 || /[\u0000-\u001f\u007f]/.test(trimmed))
    throw new OauthAdminError('--name must be 1 to 100 printable characters');
  return trimmed;
}

export async function createOauthAccount(
  ctx: OauthAdminContext,
  input: { community: string; username: string; password: string; displayName?: string },
) {
  if (input.password.length < 8)
    throw new OauthAdminError('--password needs at least 8 characters');
  const { id } = await community(ctx.db, input.community);
  return new AccountStore(ctx.db).create(id, input.username, input.password, input.displayName);
}

export async function rotateSigningKey(ctx: OauthAdminContext, communityName: string) {
  const { id } = await community(ctx.db, communityName);
  return new SigningKeyStore(ctx.db, ctx.keyring).rotate(id, LONGEST_SIGNED_TTL);
}

export async function setExternalIdp(
  ctx: OauthAdminContext,
  communityName: string,
  idp: ExternalIdp,
) {
  httpUrl(idp.jwksUri, '--jwks-uri');
  const { id } = await community(ctx.db, communityName);
  await new TrustStore(ctx.db).setExternalIdp(id, idp);
  return { community: communityName, ...idp };
}

export async function trustProofKey(
  ctx: OauthAdminContext,
  communityName: string,
  kid: string,
  publicKey: string,
) {
  const point = Buffer.from(publicKey, 'base64');
  if (point.length !== 64) throw new OauthAdminError('--public-key must be base64 X||Y (64 bytes)');
  const jwk = {
    kty: 'EC',
    crv: 'secp256k1',
    x: point.subarray(0, 32).toString('base64url'),
    y: point.subarray(32).toString('base64url'),
  };
  const { id } = await community(ctx.db, communityName);
  await new TrustStore(ctx.db).trustProofKey(id, kid, jwk);
  return { community: communityName, kid };
}
