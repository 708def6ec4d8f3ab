// document_auth_b; protocol in the sandbox's routes/documentAuthB.ts. An OAuth client-credentials
// token from clientUrl (clientId / clientSecretKey), then a transaction at <apiUrl>/transactions with
// x-api-key apiKey, shaped by tokenConfiguration[dl|ppt|idcard] (flowId, documentType,
// seldocTypeFilter, confirm, scores). Unless keepTransaction, the transaction is deleted after its
// answer is read, without holding the reply back.
// face_compare goes to <apiUrl>/face/compare with x-api-key faceAPIKey. document_share_session_enabled
// is passed through as shareSession. Defaults: <connectorUrl>/docb/oauth/token, <connectorUrl>/docb/api/v1.
// The token serves every job of the verifier's account (provider/accounts.ts: the verifier, its
// community and whole config) until shortly before it expires (shared/accessTokens.ts).
import {
  afterAnswer,
  type Adapter,
  type AdapterInput,
  type AdapterOutput,
  type WorkerConnector,
} from '../connector.ts';
import { within } from '../../provider/accounts.ts';
import { AccessTokens, type IssuedToken } from '../shared/accessTokens.ts';
import { documentImages, documentKind, facePair } from '../shared/documentInputs.ts';
import { extractedFrom } from '../shared/extracted.ts';
import { asNumber, asRecord, decision, defined } from '../shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from '../shared/providerCall.ts';

const what = 'document provider B';
type Input = AdapterInput<'document_auth_b'>;

/** A client-credentials token, fetched for no one job: the client's own timeouts bound it. */
async function token(input: Input, url: string): Promise<IssuedToken> {
  const c = input.config;
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: c.clientId ?? '',
    client_secret: c.clientSecretKey ?? '',
  });
  const raw = await callProvider({ http: input.http }, `${what} token`, {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: form.toString(),
  });
  const answer = expectAnswer(raw, `${what} token`, ['access_token']);
  return { token: String(answer.access_token), expiresInS: asNumber(answer.expires_in) };
}

async function authenticate(input: Input, api: string, headers: Record<string, string>) {
  const c = input.config;
  const doc = documentKind(input.kind);
  const flow = c.tokenConfiguration?.[doc];
  const raw = await callProvider(input, what, {
    method: 'POST',
    url: `${api}/transactions`,
    headers: { ...headers, 'x-api-key': c.apiKey ?? '' },
    data: defined({
      flowId: flow?.flowId || `default-${doc}`,
      documentType: doc,
      images: documentImages(input.document),
      options: {
        seldocTypeFilter: flow?.seldocTypeFilter ?? [],
        confirm: flow?.confirm ?? false,
        scores: flow?.scores ?? true,
      },
      shareSession: c.document_share_session_enabled,
    }),
  });
  const answer = expectAnswer(raw, what, ['transactionId', 'status']);
  // the provider's copy of the transaction goes once its answer is read; the caller does not
  // wait for that, the verifier's slot does (provider/trailing.ts)
  const after =
    c.keepTransaction === true
      ? undefined
      : afterAnswer(
          callProvider({ http: input.http }, `${what} transaction delete`, {
            method: 'DELETE',
            url: `${api}/transactions/${encodeURIComponent(String(answer.transactionId))}`,
            headers: { ...headers, 'x-api-key': c.apiKey ?? '' },
          }),
        );
  const reasons = Array.isArray(answer.reasons) ? answer.reasons.map(String) : [];
  const score = asNumber(asRecord(answer.scores).overall);
  const status = answer.status === 'REVIEW' ? 'inconclusive' : undefined;
  const result = decision(answer.status === 'ACCEPTED', reasons.length ? reasons : ['rejected'], {
    score,
    ...(status ? { status } : {}),
  });
  const output = { result: { ...result, extracted: extractedFrom(answer.document) }, raw };
  return after ? { ...output, after } : output;
}

async function faceCompare(input: Input, api: string, headers: Record<string, string>) {
  const raw = await callProvider(input, what, {
    method: 'POST',
    url: `${api}/face/compare`,
    headers: { ...headers, 'x-api-key': input.config.faceAPIKey ?? '' },
    data: facePair(input.document),
  });
  const answer = expectAnswer(raw, what, ['score', 'match']);
  const result = decision(answer.match === true, ['faces_differ'], {
    score: (asNumber(answer.score) ?? 0) * 100,
  });
  return { result: { ...result, threshold: 50 }, raw };
}

function createDocumentAuthB(tokens: AccessTokens): Adapter<'document_auth_b'> {
  return (input) => {
    const c = input.config;
    const api = endpoint(input.connectorUrl, c.apiUrl, '/docb/api/v1').replace(/\/+$/, '');
    const tokenUrl = endpoint(input.connectorUrl, c.clientUrl, '/docb/oauth/token');
    return tokens.use(
      within(input.account, tokenUrl, api),
      () => token(input, tokenUrl),
      (issued): Promise<AdapterOutput> => {
        const headers = { authorization: `Bearer ${issued}` };
        return input.kind === 'face_compare'
          ? faceCompare(input, api, headers)
          : authenticate(input, api, headers);
      },
    );
  };
}

export const connector: WorkerConnector<'document_auth_b'> = {
  type: 'document_auth_b',
  start: () => ({ adapter: createDocumentAuthB(new AccessTokens()), close: async () => {} }),
};
