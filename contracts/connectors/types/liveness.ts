// liveness: face liveness of a selfie and document liveness of a document photo.
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';

const Calibration = Type.Union([
  Type.Literal('SOFT'),
  Type.Literal('REGULAR'),
  Type.Literal('HARDENED'),
]);

export const liveness = defineConnector({
  type: 'liveness',
  kinds: ['face_liveness', 'document_liveness'],
  config: Type.Object(
    {
      apiKey: opt(str()),
      url: opt(uri('face liveness endpoint')),
      documentLivenessCheckAPI: opt(uri('document liveness endpoint')),
      documentApiKey: opt(str()),
      calibration: opt(Calibration),
    },
    strict,
  ),
  secrets: ['apiKey', 'documentApiKey'],
  addresses: ['url', 'documentLivenessCheckAPI'],
  deployment: { compute: 'io' },
});
