// The OAuth side of the conformance world: clients, an account, an outside identity provider whose
// id_token_hint starts an EAM interaction, proofs, and tokens of the account and of a machine.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import {
  createOauthAccount,
  createOauthClient,
  setExternalIdp,
} from '../../../services/oauth/src/admin.ts';
import { credentialHeaders } from './independentClient.ts';
import { signProofJwt } from './proofJwt.ts';
import type { VerifyWorld } from './verifyWorld.ts';
import { platformKeyring } from './platform.ts';

export const REDIRECT = 'https://rp.example.test/callback';
const IDP_ISSUER = 'https://login.idp.example.test/tenant-1/v2.0';

export interface OauthParty {
  issuer: string;
  web: { client_id: string; client_secret: string };
  machine: { client_id: string; client_secret: string };
  basic(client: { client_id: string; client_secret: string }): string;
  /** a fresh client_credentials access token */
  machineToken(): Promise<string>;
  /** POST authorize form with a valid proof for the account (PKCE verifier alongside) */
  proofForm(): Promise<{ form: Record<string, string>; verifier: string }>;
  /** an access token of the account (proof, code, token exchange) */
  userToken(): Promise<string>;
  /** authorize GET parameters that lead to the login page */
  authorizeQuery(extra?: Record<string, string>): string;
  /** the uid of an interaction holding a validated outside id_token_hint */
  eamInteraction(): Promise<string>;
}

export async function startIdp(): Promise<{
  server: Server;
  jwksUri: string;
  hint(): Promise<string>;
}> {
  const keys = await generateKeyPair('RS256');
  const jwks = { keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'idp-1', alg: 'RS256' }] };
  const server = createServer((_req, res) =>
    res.setHeader('content-type', 'application/json').end(JSON.stringify(jwks)),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`;
  const hint = () =>
    new SignJWT({ oid: 'oid-testy-0000', tid: 'tid-example-0000' })
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-1' })
      .setIssuer(IDP_ISSUER)
      .setAudience('eam-app')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(keys.privateKey);
  return { server, jwksUri, hint };
}

export async function oauthParty(
  verify: VerifyWorld,
  idp: { jwksUri: string; hint(): Promise<string> },
): Promise<OauthParty> {
  const { platform } = verify;
  const ctx = { db: platform.database.db, keyring: platformKeyring(platform) };
  const name = platform.community.name;
  const issuer = `${platform.services.oauth.url}/community/${name}`;
  const web = await createOauthClient(ctx, {
    community: name,
    redirectUris: [REDIRECT],
    grantTypes: ['authorization_code', 'refresh_token'],
  });
  const machine = await createOauthClient(ctx, {
    community: name,
    redirectUris: [],
    grantTypes: ['client_credentials'],
  });
  const account = await createOauthAccount(ctx, {
    community: name,
    username: 'testy-conformance',
    password: randomBytes(12).toString('base64'),
    displayName: 'Testy McTestface',
  });
  await setExternalIdp(ctx, name, {
    issuer: IDP_ISSUER,
    audience: 'eam-app',
    jwksUri: idp.jwksUri,
  });
  const basic = (c: { client_id: string; client_secret: string }) =>
    `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`;
  const token = async (client: typeof web, form: Record<string, string>) => {
    const res = await fetch(`${issuer}/v1/token`, {
      method: 'POST',
      headers: { authorization: basic(client) },
      body: new URLSearchParams(form),
    });
    const body = (await res.json()) as { access_token?: string };
    if (!body.access_token) throw new Error(`token: ${res.status} ${JSON.stringify(body)}`);
    return body.access_token;
  };
  const serviceKeySecret = async () => {
    const res = await fetch(`${platform.services.oauth.url}/servicekeys`, {
      headers: credentialHeaders({
        licenseKey: platform.licences.system,
        servicePublicKey: (
          (await (await fetch(`${platform.services.oauth.url}/publickeys`)).json()) as {
            publicKey: string;
          }
        ).publicKey,
      }),
    });
    return ((await res.json()) as { keySecret: string }[])[0]!.keySecret;
  };
  const proofForm = async () => {
    const verifier = randomBytes(32).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const proof = signProofJwt(await serviceKeySecret(), {
      sub: account.accountId,
      aud: issuer,
      iat: now,
      exp: now + 60,
      jti: randomUUID(),
    });
    const form = {
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      state: randomUUID(),
      nonce: randomUUID(),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      proof_of_authentication_jwt: proof,
    };
    return { form, verifier };
  };
  const authorizeQuery = (extra: Record<string, string> = {}) =>
    new URLSearchParams({
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      state: randomUUID(),
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
      ...extra,
    }).toString();
  return {
    issuer,
    web,
    machine,
    basic,
    machineToken: () => token(machine, { grant_type: 'client_credentials' }),
    proofForm,
    authorizeQuery,
    async userToken() {
      const { form, verifier } = await proofForm();
      const res = await fetch(`${issuer}/v1/authorize`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams(form),
      });
      const code = new URL(res.headers.get('location') ?? '', issuer).searchParams.get('code');
      if (!code) throw new Error(`authorize: ${res.status} ${res.headers.get('location')}`);
      return token(web, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      });
    },
    async eamInteraction() {
      const query = authorizeQuery({ id_token_hint: await idp.hint() });
      const res = await fetch(`${issuer}/v1/authorize?${query}`, { redirect: 'manual' });
      const location = new URL(res.headers.get('location') ?? '', issuer);
      if (!/\/v1\/interaction\//.test(location.pathname))
        throw new Error(`EAM authorize: ${res.status} ${location.href}`);
      return location.pathname.split('/').pop()!;
    },
  };
}
