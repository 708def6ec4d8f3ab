// auto_review: documents reviewed automatically by a review provider (pass, fail or refer).
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';

export const auto_review = defineConnector({
  type: 'auto_review',
  kinds: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate'],
  config: Type.Object({ apiKey: opt(str()), url: opt(uri('review endpoint')) }, strict),
  secrets: ['apiKey'],
  addresses: ['url'],
  deployment: { compute: 'io' },
});
