// face_compare_a: a face detect-and-verify cloud API, with accounts tried in order.
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';

const Account = Type.Object(
  { apiKey: str(), url: uri('detect endpoint base'), urlVerify: uri('verify endpoint') },
  strict,
);

export const face_compare_a = defineConnector({
  type: 'face_compare_a',
  kinds: ['face_compare'],
  config: Type.Object(
    {
      accounts: opt(
        Type.Array(Account, {
          description: 'tried in order: the next account is used when one fails',
        }),
      ),
      retryCount: opt(Type.Number({ minimum: 0, maximum: 10 })),
      returnFaceId: opt(Type.Boolean()),
      returnFaceLandmarks: opt(Type.Boolean()),
      detectionModel: opt(str()),
      recognitionModel: opt(str()),
      returnFaceAttributes: opt(str()),
      faceIdTimeToLive: opt(Type.Number({ minimum: 60, maximum: 86400 })),
    },
    strict,
  ),
  secrets: ['accounts/*/apiKey'],
  addresses: ['accounts/*/url', 'accounts/*/urlVerify'],
  deployment: { compute: 'io' },
});
