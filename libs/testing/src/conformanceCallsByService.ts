// The valid calls of the docverify, webhooks and oauth issuer operations (conformanceCalls.ts has
// the common ones and what a rule says).
import { randomBytes } from 'node:crypto';
import { connectorCallbackSignature } from '@idv/crypto';
import { CONSENT_TEXT_VERSION } from '@idv/contracts';
import type { CallRule } from './conformanceCalls.ts';
import type { ConformanceWorld } from './conformanceWorld.ts';

const communityOf = (w: ConformanceWorld) => w.verify.platform.community;
const scope = (w: ConformanceWorld) => ({
  tenantId: communityOf(w).tenantId,
  communityId: communityOf(w).id,
});

/** oidc-provider: no client authentication at all is invalid_request, a wrong one invalid_client */
const CLIENT_AUTH = { badForm: {}, bareStatus: 400 };

export const DOCVERIFY: Record<string, CallRule> = {
  'PUT /verifier/community/{communityId}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id },
      body: {
        name: 'Conformance verifier',
        tag: `v-${randomBytes(4).toString('hex')}`,
        type: 'identity_data',
        connectorUrl: 'http://127.0.0.1:9/identity',
        config: { apiKey: 'conformance-key' },
      },
    }),
    lowLevel: 'community',
  },
  'GET /verifier/community/{communityId}': {
    valid: async (w) => ({ caller: 'service', params: { communityId: communityOf(w).id } }),
    lowLevel: 'community',
  },
  'GET /verifier/community/{communityId}/{idOrTag}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id, idOrTag: await w.verifier() },
    }),
    lowLevel: 'community',
  },
  'PATCH /verifier/community/{communityId}/{idOrTag}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id, idOrTag: await w.verifier() },
      body: { name: 'Renamed' },
    }),
    lowLevel: 'community',
  },
  'DELETE /verifier/community/{communityId}/{idOrTag}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id, idOrTag: await w.verifier() },
    }),
    lowLevel: 'community',
  },
  'PUT /verificationConfig/community/{communityId}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id },
      body: {
        tenantId: communityOf(w).tenantId,
        tag: `cfg-${randomBytes(4).toString('hex')}`,
        face_compare: [{ verifier: 'provider' }],
      },
    }),
    lowLevel: 'community',
  },
  'GET /verificationConfig/community/{communityId}': {
    valid: async (w) => ({ caller: 'service', params: { communityId: communityOf(w).id } }),
    lowLevel: 'community',
  },
  'GET /verificationConfig/community/{communityId}/{idOrTag}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id, idOrTag: await w.config() },
    }),
    lowLevel: 'community',
  },
  'PATCH /verificationConfig/community/{communityId}/{idOrTag}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id, idOrTag: await w.config() },
      body: { name: 'Renamed' },
    }),
    lowLevel: 'community',
  },
  'DELETE /verificationConfig/community/{communityId}/{idOrTag}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id, idOrTag: await w.config() },
    }),
    lowLevel: 'community',
  },
  'POST /verify': {
    valid: async (w) => ({ caller: 'service', encrypted: w.verify.verifyBody() }),
    variants: { 202: { prefer: 'respond-async' } },
  },
  'GET /verification/{verificationId}': {
    valid: async (w) => ({
      caller: 'service',
      params: { verificationId: await w.keptVerification() },
    }),
  },
  'POST /document_share_session/create': {
    valid: async (w) => {
      await w.session(); // the config sessions can run
      return { caller: 'service', encrypted: { dvcID: 'session-kyc', sessionRequest: {} } };
    },
  },
  'POST /document_share_session/result': {
    valid: async (w) => ({
      caller: 'service',
      encrypted: { dvcID: 'session-kyc', sessionId: (await w.session()).sessionId },
    }),
  },
  'POST /document_share_session/cancel': {
    valid: async (w) => ({
      caller: 'service',
      encrypted: { dvcID: 'session-kyc', sessionId: (await w.session()).sessionId },
    }),
  },
  'GET /sessions/community/{communityId}': {
    valid: async (w) => ({ caller: 'service', params: { communityId: communityOf(w).id } }),
    lowLevel: 'community',
  },
  'GET /sessions/community/{communityId}/{sessionId}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id, sessionId: (await w.session()).sessionId },
    }),
    lowLevel: 'community',
  },
  'POST /erasure/community/{communityId}': {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityOf(w).id },
      body: { sessionId: (await w.session()).sessionId },
    }),
    lowLevel: 'community',
    // the path's last parameter is the community: an unknown one is a 403 of the licence check
    unknown: false,
  },
  'POST /connector-callback/{verifierId}': {
    valid: async (w) => {
      const { verifierId, verificationId, reference } = await w.pendingReview();
      const body = { reviewId: reference, decision: 'approved', reasons: [] };
      const timestamp = String(Math.floor(Date.now() / 1000));
      const query = `verificationId=${verificationId}&kind=dl_authenticate`;
      const target = `/connector-callback/${verifierId}?${query}`;
      const signature = connectorCallbackSignature('sandbox-key', {
        timestamp,
        method: 'POST',
        target,
        body: JSON.stringify(body),
      });
      return {
        params: { verifierId },
        query,
        headers: { 'x-callback-timestamp': timestamp, 'x-callback-signature': signature },
        body,
      };
    },
  },
  'GET /capture/{token}': {
    valid: async (w) => ({ params: { token: (await w.session()).token } }),
  },
  'GET /capture/': { valid: async () => ({ headers: { accept: 'text/html' } }) },
  'GET /capture/{token}/logo': {
    valid: async (w) => ({ params: { token: (await w.session()).token } }),
  },
  'GET /capture/assets/{file}': {
    valid: async () => ({ params: { file: 'app-1.js' } }),
  },
  'GET /capture-api/session': {
    valid: async (w) => ({ headers: bearer((await w.session()).token) }),
  },
  'GET /capture-api/status': {
    valid: async (w) => ({ headers: bearer((await w.session()).token) }),
  },
  'POST /capture-api/consent': {
    valid: async (w) => ({
      headers: bearer((await w.session()).token),
      body: { accepted: true, textVersion: CONSENT_TEXT_VERSION },
    }),
  },
  'POST /capture-api/decline': {
    valid: async (w) => ({ headers: bearer((await w.session()).token) }),
  },
  'POST /capture-api/document-type': {
    valid: async (w) => ({
      headers: bearer((await w.session()).token),
      body: { documentType: 'DL' },
    }),
  },
  'PUT /capture-api/images/{side}': {
    valid: async (w) => {
      const { token } = await w.capturing({ documentType: 'PASSPORT' });
      return {
        headers: bearer(token),
        params: { side: 'passport' },
        raw: { bytes: w.passportImage, type: 'image/jpeg' },
      };
    },
  },
  'POST /capture-api/submit': {
    valid: async (w) => {
      const request = { documentType: 'PASSPORT', journeyType: 'DOCUMENT_VERIFICATION_ONLY' };
      const { token } = await w.capturing(request);
      const upload = await fetch(`${w.url('docverify')}/capture-api/images/passport`, {
        method: 'PUT',
        headers: { ...bearer(token), 'content-type': 'image/jpeg' },
        body: new Uint8Array(w.passportImage),
      });
      if (upload.status !== 200) throw new Error(`upload: ${upload.status}`);
      return { headers: bearer(token) };
    },
  },
};

/** The capture page's credential: its token as a bearer token. */
function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

const HOOKS = '/tenant/{tenantId}/community/{communityId}';
export const WEBHOOKS: Record<string, CallRule> = {
  [`PUT ${HOOKS}/webhook`]: {
    valid: async (w) => ({
      caller: 'service',
      params: scope(w),
      body: {
        name: 'Conformance callbacks',
        eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
        api: { type: 'POST', url: 'http://127.0.0.1:9/hook', authType: 'none' },
        successCodes: [200],
      },
    }),
    lowLevel: 'community',
  },
  [`PATCH ${HOOKS}/webhook/{webhookId}`]: {
    valid: async (w) => ({
      caller: 'service',
      params: { ...scope(w), webhookId: await w.webhook() },
      body: { name: 'Renamed' },
    }),
    lowLevel: 'community',
  },
  [`DELETE ${HOOKS}/webhook/{webhookId}`]: {
    valid: async (w) => ({
      caller: 'service',
      params: { ...scope(w), webhookId: await w.webhook() },
    }),
    lowLevel: 'community',
  },
  [`POST ${HOOKS}/webhooks/fetch`]: {
    valid: async (w) => ({ caller: 'service', params: scope(w), body: { pSize: 5 } }),
    lowLevel: 'community',
  },
  [`GET ${HOOKS}/webhook/{webhookId}/deliveries`]: {
    valid: async (w) => ({
      caller: 'service',
      params: { ...scope(w), webhookId: await w.webhook() },
    }),
    lowLevel: 'community',
  },
  [`GET ${HOOKS}/webhook/{webhookId}/delivery/{deliveryId}`]: {
    valid: async (w) => ({ caller: 'service', params: { ...scope(w), ...(await w.delivery()) } }),
    lowLevel: 'community',
  },
  [`POST ${HOOKS}/webhook/{webhookId}/delivery/{deliveryId}/redeliver`]: {
    valid: async (w) => ({ caller: 'service', params: { ...scope(w), ...(await w.delivery()) } }),
    lowLevel: 'community',
  },
  [`PUT ${HOOKS}/event/{eventName}`]: {
    valid: async (w) => ({
      caller: 'service',
      params: { ...scope(w), eventName: 'E_IDV_DOCUMENT_VALIDATE' },
      body: { dvcID: 'kyc', docType: 'passport', status: 'verified' },
    }),
    lowLevel: 'community',
  },
};

const ISSUER = '/community/{community}';
const named = (w: ConformanceWorld) => ({ community: encodeURIComponent(communityOf(w).name) });
export const OAUTH: Record<string, CallRule> = {
  [`GET ${ISSUER}/v1/authorize`]: {
    valid: async (w) => ({ params: named(w), query: w.oauth.authorizeQuery() }),
  },
  [`POST ${ISSUER}/v1/authorize`]: {
    valid: async (w) => ({ params: named(w), form: (await w.oauth.proofForm()).form }),
  },
  [`POST ${ISSUER}/v1/token`]: {
    valid: async (w) => ({
      params: named(w),
      headers: { authorization: w.oauth.basic(w.oauth.machine) },
      form: { grant_type: 'client_credentials' },
    }),
    ...CLIENT_AUTH,
  },
  [`POST ${ISSUER}/v1/introspect`]: {
    valid: async (w) => ({
      params: named(w),
      headers: { authorization: w.oauth.basic(w.oauth.machine) },
      form: { token: await w.oauth.machineToken() },
    }),
    ...CLIENT_AUTH,
  },
  [`POST ${ISSUER}/request`]: {
    valid: async (w) => ({
      params: named(w),
      headers: { authorization: w.oauth.basic(w.oauth.web) },
      form: Object.fromEntries(new URLSearchParams(w.oauth.authorizeQuery())),
    }),
    // the form names its client, so without the Basic header the client fails to authenticate
    badForm: {},
    bareStatus: 401,
  },
  [`POST ${ISSUER}/v1/revoke`]: {
    valid: async (w) => ({
      params: named(w),
      headers: { authorization: w.oauth.basic(w.oauth.machine) },
      form: { token: await w.oauth.machineToken() },
    }),
    ...CLIENT_AUTH,
  },
  [`GET ${ISSUER}/v1/userinfo`]: {
    valid: async (w) => ({
      params: named(w),
      headers: { authorization: `Bearer ${await w.oauth.userToken()}` },
    }),
  },
  [`GET ${ISSUER}/v1/logout`]: { valid: async (w) => ({ params: named(w) }) },
  [`GET ${ISSUER}/v1/jwks`]: { valid: async (w) => ({ params: named(w) }) },
  [`GET ${ISSUER}/.well-known/openid-configuration`]: {
    valid: async (w) => ({ params: named(w) }),
  },
  [`GET ${ISSUER}/v1/interaction/{uid}/eam-context`]: {
    valid: async (w) => ({
      caller: 'service',
      params: { ...named(w), uid: await w.oauth.eamInteraction() },
    }),
    lowLevel: 'community',
  },
};
