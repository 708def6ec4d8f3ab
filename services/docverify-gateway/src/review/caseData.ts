// The person's data a reviewer weighs (GET .../data and .../images/{name}, each read audited by the
// route): what the document checks read beside what the caller sent, and the images the reviewed
// run saw. Only while the verification still holds them: a 410 once they are gone.
import {
  CAPTURE_SIDES,
  DOCUMENT_IMAGE_MEMBERS,
  type CaptureSide,
  type ReviewCaseData,
} from '@idv/contracts';
import { GoneError, NotFoundError } from '@idv/errors';
import { sniffFormat } from '@idv/images';
import type { Keyring } from '@idv/platform';
import type { ReviewCaseRecord } from './reviewCaseStore.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import { caseImages, type CaseImageDeps, type SideImages } from './caseImages.ts';

export interface CaseDataDeps extends CaseImageDeps {
  sessions: SessionStore;
  keys: Keyring;
}

const strings = (record: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(record).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );

/** The media type an image's bytes announce. */
export const mediaTypeOf = (bytes: Buffer) => {
  const format = sniffFormat(bytes);
  return format ? `image/${format}` : 'application/octet-stream';
};

/** What the caller sent: the request's data members (async), or the session's own (userUID...). */
async function given(
  deps: CaseDataDeps,
  kase: ReviewCaseRecord,
  document?: Record<string, unknown>,
) {
  if (document)
    return strings(
      Object.fromEntries(
        Object.entries(document).filter(([name]) => !DOCUMENT_IMAGE_MEMBERS.includes(name)),
      ),
    );
  const sealed = kase.sessionId ? await deps.sessions.sealedRequest(kase.sessionId) : null;
  if (!sealed) return {};
  const opened = await deps.keys.open(sealed, `session-request:${kase.sessionId}`);
  return strings(JSON.parse(opened) as Record<string, unknown>);
}

export async function caseData(
  deps: CaseDataDeps,
  kase: ReviewCaseRecord,
): Promise<ReviewCaseData> {
  const result = await deps.runs.heldResult(kase.currentRunId);
  const { images, request } = await caseImages(deps, kase);
  const caller = await given(deps, kase, request?.document as Record<string, unknown> | undefined);
  if (!result && Object.keys(images).length === 0 && Object.keys(caller).length === 0)
    throw new GoneError(
      "the case's personal data is no longer held (retrieved, expired or erased)",
    );
  const extracted = (result?.certifications ?? []).flatMap((c) =>
    c.result && 'extracted' in c.result && c.result.extracted
      ? [{ kind: c.kind, verifier: c.verifier, fields: strings(c.result.extracted) }]
      : [],
  );
  return {
    caseId: kase.id,
    reviewedVerificationId: kase.currentRunId,
    given: caller,
    extracted,
    images: (Object.entries(images) as [CaptureSide, Buffer][]).map(([name, bytes]) => ({
      name,
      mediaType: mediaTypeOf(bytes),
      bytes: bytes.length,
    })),
  };
}

/** One image of the case, by side name; 404 for a name it does not hold. */
export async function caseImage(
  deps: CaseDataDeps,
  kase: ReviewCaseRecord,
  name: string,
): Promise<Buffer> {
  const side = CAPTURE_SIDES.find((known) => known === name);
  const { images } = side ? await caseImages(deps, kase, side) : { images: {} as SideImages };
  const bytes = side ? images[side] : undefined;
  if (!bytes) throw new NotFoundError(`the case holds no image ${name}`);
  return bytes;
}
