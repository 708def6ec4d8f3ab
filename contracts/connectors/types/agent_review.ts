// agent_review: documents reviewed by people at a review provider (a review may be decided later: followed up).
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';

export const agent_review = defineConnector({
  type: 'agent_review',
  kinds: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate'],
  config: Type.Object({ apiKey: opt(str()), url: opt(uri('review queue endpoint')) }, strict),
  secrets: ['apiKey'],
  addresses: ['url'],
  // a person answers: slow calls, so a short backlog before another replica
  deployment: { compute: 'io', backlogPerReplica: 4 },
  // a review decided later: polled, or called back signed with the account's apiKey, naming its reviewId
  followUps: { callbackSecret: 'apiKey', callbackReference: 'reviewId' },
});
