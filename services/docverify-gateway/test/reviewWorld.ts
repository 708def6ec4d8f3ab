// The world of the review tests: the session world (gateway, provider sandbox, connector workers,
// a test clock) with configs that ask for review, a stand-in for the operators' issuer's userinfo
// endpoint answering fixed tokens with fixed operators (it stands in for the outside issuer only;
// reviewOperatorLogin.test.ts goes through the real oauth service), and helpers that take a
// session through the capture API or start an async /verify.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { OperatorClient } from '@idv/client';
import { verifyMessage } from '@idv/crypto';
import {
  CONSENT_TEXT_VERSION,
  type ReviewCaseSummary,
  type VerifyRequest,
  type VerifyResult,
} from '@idv/contracts';
import { jpeg, selfieImage } from '@idv/samples/captureImages';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

export { eventually };

/** Operators the stand-in knows, by access token. */
export const OPERATORS = {
  reviewer: { sub: 'op-reviewer', preferred_username: 'testy-reviewer', roles: ['reviewer'] },
  reviewer2: { sub: 'op-reviewer-2', preferred_username: 'testy-reviewer-2', roles: ['reviewer'] },
  senior: { sub: 'op-senior', preferred_username: 'testy-senior', roles: ['senior_reviewer'] },
  admin: { sub: 'op-admin', preferred_username: 'testy-admin', roles: ['admin'] },
  viewer: { sub: 'op-viewer', preferred_username: 'testy-viewer', roles: ['viewer'] },
  auditor: { sub: 'op-auditor', preferred_username: 'testy-auditor', roles: ['auditor'] },
} as const;
export type OperatorName = keyof typeof OPERATORS | 'elsewhere' | 'admin-stale';

/** The configs the world makes beside kyc-session (whose review mode the suite chooses). */
export const CONFIGS = {
  always: { mode: 'always' },
  inconclusive: { mode: 'on_inconclusive', slaMinutes: 30 },
  fourEyes: { mode: 'always', fourEyes: true },
} as const;

export interface ReviewWorld extends SessionWorld {
  operator(name: OperatorName): OperatorClient;
  /** a session of `dvcID` captured through the page API and submitted; its ids */
  submittedSession(dvcID: string, selfie?: Buffer): Promise<{ sessionId: string; url: string }>;
  /** an async /verify of `dvcID` with the world's images; its verification id */
  asyncVerify(dvcID: string, selfie?: Buffer): Promise<string>;
  /** the same request as a sync /verify; its answer */
  syncVerify(dvcID: string, selfie?: Buffer): Promise<VerifyResult>;
  /** the case the verification (or session) opened, once it is there */
  caseOf(ids: { sessionId?: string; verificationId?: string }): Promise<ReviewCaseSummary>;
  /** a selfie of someone else than the document's: face_compare says not_verified */
  otherSelfie: Buffer;
  stopWorld(): Promise<void>;
}

export const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

/**
 * The claims of a certification's proof once its ES256K signature checked against /publickeys, as
 * a caller checks any certification of a result.
 */
export async function proofClaims(url: string, proof: string): Promise<Record<string, unknown>> {
  const { publicKey } = (await (await fetch(`${url}/publickeys`)).json()) as { publicKey: string };
  const [header, payload, signature] = proof.split('.') as [string, string, string];
  const raw = Buffer.from(signature, 'base64url').toString('base64');
  expect(verifyMessage(publicKey, `${header}.${payload}`, raw), 'proof signature').to.equal(true);
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}

/**
 * GET /userinfo answering the operator of a known token (every community, or `elsewhere`: an
 * admin of another community only), signed in as it is asked (auth_time), but `admin-stale`: an
 * admin signed in 10 minutes ago; 401 otherwise.
 */
async function userinfoStandIn(): Promise<{ url: string; server: Server }> {
  const claims: Record<string, object> = Object.fromEntries(
    Object.entries(OPERATORS).map(([token, c]) => [`token-${token}`, { ...c, communities: [] }]),
  );
  claims['token-elsewhere'] = {
    sub: 'op-elsewhere',
    preferred_username: 'testy-elsewhere',
    roles: ['admin'],
    communities: ['00000000-0000-4000-8000-000000000000'],
  };
  claims['token-admin-stale'] = {
    ...claims['token-admin'],
    sub: 'op-admin-stale',
    preferred_username: 'testy-admin-stale',
  };
  const server = createServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const found = claims[token];
    const now = Math.floor(Date.now() / 1000);
    const authTime = token === 'token-admin-stale' ? now - 600 : now;
    res.writeHead(found ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(found ? { ...found, auth_time: authTime } : { error: 'invalid_token' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/userinfo`, server };
}

export async function startReviewWorld(options: {
  name: string;
  review?: Record<string, unknown>;
  platform?: Record<string, string>;
}): Promise<ReviewWorld> {
  const standIn = await userinfoStandIn();
  const w = await startSessionWorld({
    name: options.name,
    platform: { OPERATORS_USERINFO_URL: standIn.url, ...options.platform },
    settings: options.review ? { review: options.review } : {},
  });
  const c = w.platform.community;
  const admin = w.client('service');
  for (const [tag, review] of Object.entries(CONFIGS)) {
    const res = await admin.request('PUT', `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag: `kyc-${tag}`,
      dl_authenticate: [{ verifier: 'review' }],
      document_liveness: [{ verifier: 'live' }],
      face_compare: [{ verifier: 'faces' }],
      face_liveness: [{ verifier: 'live' }],
      settings: { retryCount: 1 },
      review,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
  const caller = w.client('service');
  const otherSelfie = await jpeg(selfieImage(480, 640, 5), 'FACE:fakey');
  const b64 = (b: Buffer) => b.toString('base64');
  const verifyRequest = (dvcID: string, selfie: Buffer): VerifyRequest => ({
    dvcID,
    verifications: ['dl_authenticate', 'face_compare'],
    document: {
      id: 'doc-testy',
      type: 'dl',
      firstName: 'Testy',
      lastName: 'McTestface',
      front_image: b64(w.images.front),
      back_image: b64(w.images.back),
      barcode_image: b64(w.images.back),
      liveId: b64(selfie),
      image2: b64(w.images.front),
    },
  });

  return {
    ...w,
    otherSelfie,
    operator: (name) => new OperatorClient({ baseUrl: w.url, accessToken: `token-${name}` }),
    async submittedSession(dvcID, selfie = w.images.selfie) {
      const created = await caller.createSession(dvcID, {
        userUID: 'user-testy-review',
        documentType: 'DL',
      });
      const page = w.page(tokenOf(created.url));
      await page.get('/session');
      await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
      for (const [side, bytes, type] of [
        ['front', w.images.front, 'image/png'],
        ['back', w.images.back, 'image/png'],
        ['selfie', selfie, 'image/jpeg'],
      ] as const)
        expect((await page.put(side, bytes, type)).body, side).to.deep.include({ accepted: true });
      expect((await page.post('/submit')).status).to.equal(200);
      return { sessionId: created.sessionId, url: created.url };
    },
    async asyncVerify(dvcID, selfie = w.images.selfie) {
      return (await caller.verifyAsync(verifyRequest(dvcID, selfie))).verificationId;
    },
    async syncVerify(dvcID, selfie = w.images.selfie) {
      const res = await caller.encryptedRequest<VerifyResult>(
        'POST',
        '/verify',
        verifyRequest(dvcID, selfie),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    },
    caseOf: (ids) =>
      eventually(
        'the review case',
        async () => {
          const list = await caller.review.cases(c.id, { limit: 100 });
          return list.items.find(
            (item) =>
              (ids.sessionId !== undefined && item.sessionId === ids.sessionId) ||
              (ids.verificationId !== undefined && item.verificationId === ids.verificationId),
          );
        },
        30_000,
      ),
    async stopWorld() {
      await w.stop();
      await new Promise((resolve) => standIn.server.close(resolve));
    },
  };
}
