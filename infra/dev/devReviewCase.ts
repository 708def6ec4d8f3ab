// `make run`'s review case (issue 28 item 7): a verification config `dev-review` that sends what is
// not verified to a reviewer, and one session through the capture page API with a selfie of
// someone else than the licence's (Testy McTestface), so face_compare says not_verified and a case
// opens for the dev community's queue. Call it after devSession (its verifiers are this config's);
// a later `make run` finds the open case and makes no other.
import { IdvClient } from '@idv/client';
import { CONSENT_TEXT_VERSION, type ReviewCaseSummary } from '@idv/contracts';
import type { KeyPair } from '@idv/crypto';
// the generator the session tests use: real PNG/JPEG pictures that carry the sandbox's fixture names
import { jpeg, png, selfieImage } from '@idv/samples/captureImages';
import { licenceBack, licenceFront } from '@idv/samples/idDocuments';

export const DEV_REVIEW_CONFIG = 'dev-review';

export interface DevReviewPlace {
  docverifyUrl: string;
  /** a service licence of the community, and the caller key pair it is used with */
  licenseKey: string;
  keyPair: KeyPair;
  communityId: string;
  tenantId: string;
}

/** A call of the capture page API at `base` with the page token of the session's `url`. */
async function page(
  base: string,
  url: string,
  path: string,
  init: { method: string; body?: Buffer | object; type?: string },
) {
  const token = new URL(url).pathname.split('/').at(-1)!;
  const json = init.body !== undefined && !Buffer.isBuffer(init.body);
  const res = await fetch(`${base}/capture-api${path}`, {
    method: init.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body !== undefined
        ? { 'content-type': json ? 'application/json' : (init.type ?? 'image/png') }
        : {}),
    },
    ...(init.body !== undefined
      ? { body: json ? JSON.stringify(init.body) : new Uint8Array(init.body as Buffer) }
      : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method} /capture-api${path}: ${res.status} ${text}`);
  // an image the page's checks refused answers 200 with its verdict: say which, not a later 409
  const verdict = JSON.parse(text) as { accepted?: boolean };
  if (verdict.accepted === false)
    throw new Error(`${init.method} /capture-api${path}: refused ${text}`);
}

/**
 * An image sent until it is checked: at start the capture-check workers may not consume yet, and
 * an image no worker checked (check_unavailable) is neither kept nor counted, so it goes again.
 */
async function sendImage(send: () => Promise<void>): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      return await send();
    } catch (err) {
      if (tries >= 30 || !/check_unavailable/.test((err as Error).message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** One open review case of the dev community: the one there is, or a new one. */
export async function devReviewCase(place: DevReviewPlace): Promise<ReviewCaseSummary> {
  const client = new IdvClient({
    baseUrl: place.docverifyUrl,
    licenseKey: place.licenseKey,
    keyPair: place.keyPair,
  });
  const open = await client.review.cases(place.communityId, { state: 'open', limit: 1 });
  if (open.items[0]) return open.items[0];
  const made = await client.request('PUT', `/verificationConfig/community/${place.communityId}`, {
    tenantId: place.tenantId,
    tag: DEV_REVIEW_CONFIG,
    name: 'make run: the face journey, reviewed when not verified',
    dl_authenticate: [{ verifier: 'dev-documents' }],
    document_liveness: [{ verifier: 'dev-liveness' }],
    face_compare: [{ verifier: 'dev-faces' }],
    face_liveness: [{ verifier: 'dev-liveness' }],
    review: { mode: 'on_inconclusive', slaMinutes: 240 },
  });
  if (made.status !== 200 && made.status !== 409)
    throw new Error(`config ${DEV_REVIEW_CONFIG}: ${made.status} ${JSON.stringify(made.body)}`);
  const session = await client.createSession(DEV_REVIEW_CONFIG, {
    documentType: 'DL',
    metadata: { source: 'make run' },
  });
  const capture = (path: string, init: Parameters<typeof page>[3]) =>
    page(place.docverifyUrl, session.url, path, init);
  await capture('/session', { method: 'GET' });
  await capture('/consent', {
    method: 'POST',
    body: { accepted: true, textVersion: CONSENT_TEXT_VERSION },
  });
  const front = await png(licenceFront(), 'DOC:testy', 'FACE:testy');
  const back = await png(await licenceBack(), 'DOC:testy');
  const selfie = await jpeg(selfieImage(480, 640, 5), 'FACE:fakey');
  await sendImage(() => capture('/images/front', { method: 'PUT', body: front }));
  await sendImage(() => capture('/images/back', { method: 'PUT', body: back }));
  await sendImage(() =>
    capture('/images/selfie', { method: 'PUT', body: selfie, type: 'image/jpeg' }),
  );
  await capture('/submit', { method: 'POST' });
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const listed = await client.review.cases(place.communityId, { state: 'open', limit: 100 });
    const found = listed.items.find((item) => item.sessionId === session.sessionId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`session ${session.sessionId} opened no review case within 60 s`);
}
