// What a session's journey needs from its verification config, which sides the person captures,
// and the VerifyRequest its accepted images make (the same request a /verify caller would send).
import type {
  CaptureSide,
  SessionDocumentType,
  ValidationIssue,
  VerificationKind,
  VerifyRequest,
} from '@idv/contracts';
import type { ConfigArrays } from '../verificationConfigs/configItems.ts';

export type JourneyType = 'KYC_WITH_FACE_COMPARISON' | 'DOCUMENT_VERIFICATION_ONLY';

const AUTHENTICATE: Record<SessionDocumentType, VerificationKind> = {
  DL: 'dl_authenticate',
  IDCARD: 'idcard_authenticate',
  PASSPORT: 'ppt_authenticate',
};

/** document.type of the request, as spec 2.2 wants it for each authenticate kind */
const WIRE_TYPE: Record<SessionDocumentType, string> = {
  DL: 'dl',
  IDCARD: 'idcard',
  PASSPORT: 'ppt',
};

const ALL_TYPES: SessionDocumentType[] = ['DL', 'IDCARD', 'PASSPORT'];

/** A kind is configured when at least one of its verifiers is not skipped. */
export function configured(arrays: ConfigArrays, kind: VerificationKind): boolean {
  return (arrays[kind] ?? []).some((item) => !item.skip);
}

/** The document types a session of this config can verify: its authenticate kind, or liveness. */
export function documentTypesOf(arrays: ConfigArrays): SessionDocumentType[] {
  if (configured(arrays, 'document_liveness')) return ALL_TYPES;
  return ALL_TYPES.filter((type) => configured(arrays, AUTHENTICATE[type]));
}

/** Why the config cannot run this journey, each issue naming the member at fault. */
export function journeyIssues(
  arrays: ConfigArrays,
  journey: JourneyType,
  documentType: SessionDocumentType | undefined,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const types = documentTypesOf(arrays);
  if (documentType && !types.includes(documentType))
    issues.push({
      path: '/sessionRequest/documentType',
      message: `${documentType} needs ${AUTHENTICATE[documentType]} or document_liveness in the verification config`,
    });
  if (types.length === 0)
    issues.push({
      path: '/dvcID',
      message:
        'the verification config has none of dl_authenticate, idcard_authenticate, ppt_authenticate, document_liveness',
    });
  if (journey === 'KYC_WITH_FACE_COMPARISON' && !configured(arrays, 'face_compare'))
    issues.push({
      path: '/sessionRequest/journeyType',
      message: 'KYC_WITH_FACE_COMPARISON needs face_compare in the verification config',
    });
  return issues;
}

/** The sides to capture, in order; without a document type only the selfie is known. */
export function sidesOf(
  documentType: SessionDocumentType | null,
  journey: JourneyType,
): CaptureSide[] {
  const document: CaptureSide[] =
    documentType === null ? [] : documentType === 'PASSPORT' ? ['passport'] : ['front', 'back'];
  return journey === 'KYC_WITH_FACE_COMPARISON' ? [...document, 'selfie'] : document;
}

/** The sides a session captures: its journey's, or a resubmission's only those asked again. */
export function sidesToCapture(session: {
  documentType: SessionDocumentType | null;
  journeyType: JourneyType;
  settings: { sides?: CaptureSide[] };
}): CaptureSide[] {
  return session.settings.sides ?? sidesOf(session.documentType, session.journeyType);
}

/** The kinds a session's run asks for, in the order of the design. */
export function kindsOf(
  arrays: ConfigArrays,
  documentType: SessionDocumentType,
  journey: JourneyType,
): VerificationKind[] {
  const wanted: VerificationKind[] = [AUTHENTICATE[documentType], 'document_liveness'];
  if (journey === 'KYC_WITH_FACE_COMPARISON') wanted.push('face_compare', 'face_liveness');
  return wanted.filter((kind) => configured(arrays, kind));
}

export interface SessionRequestInput {
  sessionId: string;
  dvcID: string;
  documentType: SessionDocumentType;
  kinds: VerificationKind[];
  /** the accepted images, raw bytes per side */
  images: Partial<Record<CaptureSide, Buffer>>;
}

/** The VerifyRequest of a session: each kind gets its images under the members spec 2.2 names. */
export function sessionRequest(input: SessionRequestInput): VerifyRequest {
  const b64 = (side: CaptureSide) => input.images[side]?.toString('base64');
  const front = input.documentType === 'PASSPORT' ? b64('passport') : b64('front');
  const back = b64('back');
  const selfie = b64('selfie');
  const document: Record<string, string> = {
    id: input.sessionId,
    type: WIRE_TYPE[input.documentType],
  };
  const put = (member: string, value: string | undefined) => {
    if (value !== undefined) document[member] = value;
  };
  for (const kind of input.kinds) {
    if (kind === 'document_liveness') put('image', front);
    if (kind === 'face_compare') {
      put('liveId', selfie);
      put('image2', front);
    }
    if (kind === 'face_liveness') put('liveId', selfie);
    if (kind === 'ppt_authenticate') put('front_image', front);
    if (kind === 'dl_authenticate' || kind === 'idcard_authenticate') {
      put('front_image', front);
      put('back_image', back);
      put('barcode_image', back);
    }
  }
  return {
    dvcID: input.dvcID,
    verifications: input.kinds,
    document: document as unknown as VerifyRequest['document'],
    event_info: { session_id: input.sessionId },
  };
}
