// The capture checks' request-reply on RabbitMQ (capture.checks): a gateway sends one captured image
// with what its checks depend on, a capture-check worker (services/capture-checker) decodes and
// checks it in its image threads and answers the verdict. The image travels sealed under
// MASTER_KEY (context: the check's id), like a connector job's document. The gateway gives up at
// `deadline`, answering check_unavailable (no retake spent), and so does a worker that takes the
// request later: a check nobody waits for is not run.
import { Type, type Static } from '@sinclair/typebox';
import { CAPTURE_PROBLEMS, CAPTURE_SIDES } from '../http/capture.ts';
import { SESSION_DOCUMENT_TYPES } from '../http/sessions.ts';

/** The queue gateways send capture checks to and capture-check workers consume (the default). */
export const CAPTURE_CHECK_QUEUE = 'capture.checks';

/** The longest capture upload a gateway may take (the ceiling of its SESSION_IMAGE_MAX_BYTES), sealed, in base64. */
const MAX_SEALED_BASE64 = Math.ceil(((32 * 1024 * 1024 + 29) * 4) / 3) + 4;

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));

export const CaptureCheckRequest = Type.Object(
  {
    checkId: Type.String({ format: 'uuid', description: 'context of the sealed image' }),
    side: literals(CAPTURE_SIDES),
    journey: Type.Object(
      {
        journeyType: literals(['KYC_WITH_FACE_COMPARISON', 'DOCUMENT_VERIFICATION_ONLY'] as const),
        documentType: Type.Union([literals(SESSION_DOCUMENT_TYPES), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    owner: Type.Object(
      {
        sessionId: Type.String({ minLength: 1, maxLength: 100 }),
        communityId: Type.String({ minLength: 1, maxLength: 100 }),
        tenantId: Type.String({ minLength: 1, maxLength: 100 }),
      },
      { additionalProperties: false },
    ),
    deadline: Type.Integer({ minimum: 0, description: 'epoch ms: past it nobody waits' }),
    image: Type.String({
      minLength: 1,
      maxLength: MAX_SEALED_BASE64,
      contentEncoding: 'base64',
      description: 'the image, sealed with MASTER_KEY (context checkId), base64',
    }),
  },
  { $id: 'messages/captureCheckRequest', additionalProperties: false },
);
export type CaptureCheckRequest = Static<typeof CaptureCheckRequest>;

export const CaptureCheckReply = Type.Object(
  {
    problems: Type.Array(
      Type.Object(
        { code: literals(CAPTURE_PROBLEMS), message: Type.String({ maxLength: 1000 }) },
        { additionalProperties: false },
      ),
      { maxItems: 10 },
    ),
    measures: Type.Optional(
      Type.Object(
        { luminance: Type.Number(), sharpness: Type.Number() },
        { additionalProperties: false },
      ),
    ),
    notes: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.Number())),
  },
  { $id: 'messages/captureCheckReply', additionalProperties: false },
);
export type CaptureCheckReply = Static<typeof CaptureCheckReply>;
