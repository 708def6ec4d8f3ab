// What the OpenAPI conformance test calls with: the platform with a connector worker, the provider
// sandbox and the dispatcher, an OAuth client, account and outside identity provider, and fresh
// resources (verifier, config, webhook, delivery, kept verification, user token, EAM interaction).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import {
  createOauthAccount,
  createOauthClient,
  setExternalIdp,
} from '../../services/oauth/src/admin.ts';
import { credentialHeaders, newCaller, seal, shared, unseal } from './independentClient.ts';
import { signLowS } from './proofJwt.ts';
import { startVerifyWorld, type VerifyWorld } from './verifyWorld.ts';

export type Service = 'oauth' | 'docverify' | 'webhooks';
export type Caller = 'system' | 'service' | 'community';
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

export interface ConformanceWorld {
  verify: VerifyWorld;
  url(service: Service): string;
  headers(service: Service, caller: Caller): Promise<Record<string, string>>;
  /** headers plus the body {data: encrypt(payload)} under the same caller key */
  encrypted(service: Service, caller: Caller, payload: unknown): Promise<Sealed>;
  verifier(): Promise<string>;
  config(): Promise<string>;
  webhook(): Promise<string>;
  delivery(): Promise<{ webhookId: string; deliveryId: string }>;
  keptVerification(): Promise<string>;
  oauth: OauthParty;
  stop(): Promise<void>;
}

interface Sealed {
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };

async function startIdp(): Promise<{ server: Server; jwksUri: string; hint(): Promise<string> }> {
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

export async function startConformanceWorld(): Promise<ConformanceWorld> {
  const verify = await startVerifyWorld({ name: 'openapi', dispatcher: true });
  const { platform } = verify;
  const { community } = platform;
  const url = (service: Service) => platform.services[service].url;
  const publicKey = async (service: Service) =>
    ((await (await fetch(`${url(service)}/publickeys`)).json()) as { publicKey: string }).publicKey;
  const headers = async (service: Service, caller: Caller) =>
    credentialHeaders({
      licenseKey: platform.licences[caller],
      servicePublicKey: await publicKey(service),
    });
  const encrypted = async (service: Service, caller: Caller, payload: unknown) => {
    const servicePublicKey = await publicKey(service);
    const key = newCaller();
    return {
      headers: credentialHeaders({ licenseKey: platform.licences[caller], servicePublicKey, caller: key }),
      body: JSON.stringify({ data: seal(shared(key, servicePublicKey), JSON.stringify(payload)) }),
    };
  }; // prettier-ignore
  const send = async (service: Service, method: string, path: string, body?: unknown) => {
    const res = await fetch(url(service) + path, {
      method,
      headers: { ...(await headers(service, 'system')), ...JSON_TYPE },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  }; // prettier-ignore

  const tag = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
  const verifier = async () =>
    String((await send('docverify', 'PUT', `/verifier/community/${community.id}`, {
      name: 'Conformance verifier', tag: tag('v'), type: 'identity_data',
      connectorUrl: 'http://127.0.0.1:9/identity', config: { apiKey: 'conformance-key' },
    })).tag); // prettier-ignore
  const config = async (settings?: object) => {
    const body = { tenantId: community.tenantId, tag: tag('cfg'), face_compare: [{ verifier: 'provider' }], ...(settings ? { settings } : {}) };
    await send('docverify', 'PUT', `/verificationConfig/community/${community.id}`, body);
    return body.tag;
  }; // prettier-ignore
  const hooks = `/tenant/${community.tenantId}/community/${community.id}`;
  const webhook = async () =>
    String((await send('webhooks', 'PUT', `${hooks}/webhook`, {
      name: 'Conformance callbacks', eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
      api: { type: 'POST', url: 'http://127.0.0.1:9/hook', authType: 'none' }, successCodes: [200],
    }))._id); // prettier-ignore

  const delivery = async () => {
    const hook = await verify.subscribe(`/${randomUUID()}`, ['E_IDV_DOCUMENT_VALIDATE']);
    await send('webhooks', 'PUT', `${hooks}/event/E_IDV_DOCUMENT_VALIDATE`, {
      dvcID: 'kyc',
      docType: 'passport',
      status: 'verified',
    });
    for (let until = Date.now() + 15_000; Date.now() < until;) {
      const list = await send('webhooks', 'GET', `${hooks}/webhook/${hook._id}/deliveries`);
      const [first] = list.data as { _id: string; status: string }[];
      if (first && first.status !== 'pending' && first.status !== 'delivering')
        return { webhookId: hook._id, deliveryId: first._id };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no delivery settled');
  };

  const keptConfig = await config({
    dataRetention: { pii_retention_off: false, pii_retention_ttl: 600 },
  });
  const keptVerification = async () => {
    const servicePublicKey = await publicKey('docverify');
    const key = newCaller();
    const sharedKey = shared(key, servicePublicKey);
    const request = { ...verify.verifyBody(), dvcID: keptConfig };
    const res = await fetch(`${url('docverify')}/verify`, {
      method: 'POST',
      headers: {
        ...credentialHeaders({ licenseKey: platform.licences.service, servicePublicKey, caller: key }),
        ...JSON_TYPE,
      },
      body: JSON.stringify({ data: seal(sharedKey, JSON.stringify(request)) }),
    });
    const answer = (await res.json()) as { data?: string };
    if (res.status !== 200 || !answer.data) throw new Error(`/verify: ${res.status} ${JSON.stringify(answer)}`);
    return (JSON.parse(unseal(sharedKey, answer.data)) as { verificationId: string }).verificationId;
  }; // prettier-ignore

  const idp = await startIdp();
  const oauth = await oauthParty(verify, idp);
  return {
    verify,
    url,
    headers,
    encrypted,
    verifier,
    config: () => config(),
    webhook,
    delivery,
    keptVerification,
    oauth,
    async stop() {
      idp.server.close();
      await verify.stop();
    },
  };
}

async function oauthParty(
  verify: VerifyWorld,
  idp: { jwksUri: string; hint(): Promise<string> },
): Promise<OauthParty> {
  const { platform } = verify;
  const ctx = {
    db: platform.database.db,
    masterKey: Buffer.from(platform.env.MASTER_KEY!, 'base64'),
  };
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
    const proof = signLowS(await serviceKeySecret(), {
      sub: account.accountId, aud: issuer, iat: now, exp: now + 60, jti: randomUUID(),
    }); // prettier-ignore
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
