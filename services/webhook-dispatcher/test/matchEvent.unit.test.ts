// Which events a webhook takes, without servers: tenant, community, name and enabled, then the
// query (dotted paths into data, `$.` envelope members, arrays as one-of) under ALL or ANY.
import { expect } from 'chai';
import type { EventEnvelope, QueryEntry } from '@idv/contracts';
import { eventMatches, queryMatches, type Subscription } from '../src/domain/matchEvent.ts';

const event: EventEnvelope = {
  eventId: 'evt-1',
  eventName: 'E_IDV_DOCUMENT_VALIDATE',
  version: 1,
  tenantId: 'tenant-a',
  communityId: 'community-a',
  ts: 1_900_000_000_000,
  origin: 'platform',
  data: {
    status: 'verified',
    score: 87,
    manual: false,
    reviewer: null,
    kinds: ['dl_verify', 'face_compare'],
    result: { level: 'high', checks: { face: 'passed' } },
  },
};

describe('webhook dispatcher: event matching', () => {
  describe('queryMatches', () => {
    const cases: [string, QueryEntry[], 'ALL' | 'ANY', boolean][] = [
      ['no entries match every event', [], 'ALL', true],
      ['no entries match under ANY too', [], 'ANY', true],
      ['a string member by equality', [{ status: 'verified' }], 'ALL', true],
      ['another string does not match', [{ status: 'failed' }], 'ALL', false],
      ['a number member', [{ score: 87 }], 'ALL', true],
      ['a number does not equal its string', [{ score: '87' }], 'ALL', false],
      ['a false member', [{ manual: false }], 'ALL', true],
      ['false does not equal 0 (strict)', [{ manual: 0 }], 'ALL', false],
      ['a null member matches null', [{ reviewer: null }], 'ALL', true],
      ['an absent member does not match null', [{ approver: null }], 'ALL', false],
      ['an absent member matches nothing', [{ approver: 'testy' }], 'ALL', false],
      ['a dotted path into data', [{ 'result.level': 'high' }], 'ALL', true],
      ['a deeper dotted path', [{ 'result.checks.face': 'passed' }], 'ALL', true],
      ['a path through an absent member', [{ 'result.missing.face': 'passed' }], 'ALL', false],
      ['a path through a scalar', [{ 'status.length': 8 }], 'ALL', false],
      ['an object member matches no scalar', [{ result: 'high' }], 'ALL', false],
      // Object.prototype's own prototype is null: only a walk up the prototype chain reaches it
      ['an inherited member is absent', [{ 'result.__proto__.__proto__': null }], 'ALL', false],
      ['a key without $. reads data, not the envelope', [{ eventName: 'x' }], 'ALL', false],
      ['$. names an envelope member', [{ '$.eventName': 'E_IDV_DOCUMENT_VALIDATE' }], 'ALL', true],
      ['$. with another value', [{ '$.communityId': 'community-b' }], 'ALL', false],
      ['$. envelope number', [{ '$.version': 1 }], 'ALL', true],
      ['$.data reaches into data', [{ '$.data.result.level': 'high' }], 'ALL', true],
      ['$. alone names nothing', [{ '$.': 'x' }], 'ALL', false],
      ['$. of an absent envelope member', [{ '$.webhookId': 'x' }], 'ALL', false],
      ['an array value is one-of', [{ status: ['failed', 'verified'] }], 'ALL', true],
      ['an array value none of which matches', [{ status: ['failed', 'pending'] }], 'ALL', false],
      ['an empty array value matches nothing', [{ status: [] }], 'ALL', false],
      ['an array event value contains the wanted one', [{ kinds: 'face_compare' }], 'ALL', true],
      ['an array event value without it', [{ kinds: 'ssn_verify' }], 'ALL', false],
      [
        'array against array: any shared item',
        [{ kinds: ['ssn_verify', 'dl_verify'] }],
        'ALL',
        true,
      ],
      ['array against array: none shared', [{ kinds: ['ssn_verify', 'person'] }], 'ALL', false],
      ['an entry needs every member', [{ status: 'verified', score: 87 }], 'ALL', true],
      ['one member off fails the entry', [{ status: 'verified', score: 88 }], 'ANY', false],
      ['ALL: every entry matches', [{ status: 'verified' }, { score: 87 }], 'ALL', true],
      ['ALL: one entry off fails', [{ status: 'verified' }, { score: 88 }], 'ALL', false],
      ['ANY: one entry matching is enough', [{ status: 'failed' }, { score: 87 }], 'ANY', true],
      ['ANY: no entry matching fails', [{ status: 'failed' }, { score: 88 }], 'ANY', false],
    ];
    for (const [name, query, criteria, expected] of cases) {
      it(name, () => expect(queryMatches(event, query, criteria)).to.equal(expected));
    }
  });

  describe('eventMatches', () => {
    const webhook: Subscription = {
      tenantId: 'tenant-a',
      communityId: 'community-a',
      eventNames: ['E_IDV_FACE_VALIDATE', 'E_IDV_DOCUMENT_VALIDATE'],
      disabled: false,
      query: [{ status: 'verified' }],
      criteria: 'ALL',
    };
    const cases: [string, Partial<Subscription>, boolean][] = [
      ['an enabled webhook of the event community, name and query', {}, true],
      ['a disabled webhook', { disabled: true }, false],
      ['a webhook of another tenant', { tenantId: 'tenant-b' }, false],
      ['a webhook of another community', { communityId: 'community-b' }, false],
      ['a webhook for other event names', { eventNames: ['E_IDV_FACE_VALIDATE'] }, false],
      ['a webhook whose query does not match', { query: [{ status: 'failed' }] }, false],
      ['a webhook without a query', { query: [] }, true],
    ];
    for (const [name, change, expected] of cases) {
      it(name, () => expect(eventMatches(event, { ...webhook, ...change })).to.equal(expected));
    }
  });
});
