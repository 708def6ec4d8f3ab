// face_compare_b: a face match provider answering one JSON call.
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';

export const face_compare_b = defineConnector({
  type: 'face_compare_b',
  kinds: ['face_compare'],
  config: Type.Object({ apiKey: opt(str()), url: opt(uri('compare endpoint')) }, strict),
  secrets: ['apiKey'],
  addresses: ['url'],
  deployment: { compute: 'io' },
});
