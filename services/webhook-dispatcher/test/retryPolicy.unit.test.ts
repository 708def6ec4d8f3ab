// The retry policy without servers: which answers succeed, retry or fail, when a retry falls
// (backoff ×6 with ±20 % jitter, Retry-After up to an hour), and where retryCount and ttl stop it.
import { expect } from 'chai';
import {
  backoffMs,
  judgeAttempt,
  parseRetryAfter,
  type AttemptResult,
  type PolicyContext,
  type RetryRules,
  type Verdict,
} from '../src/domain/retryPolicy.ts';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const BASE = 1000;
const HOUR = 60 * 60 * 1000;
const rules: RetryRules = { successCodes: [200, 204], retryCodes: [429, 503], retryCount: 2 };
const midpoint = () => 0.5;
const context = (over: Partial<PolicyContext> = {}): PolicyContext => ({
  attempt: 1,
  now: NOW,
  expiresAt: null,
  retryBaseMs: BASE,
  random: midpoint,
  ...over,
});
const retryIn = (ms: number): Verdict => ({ outcome: 'retry', at: new Date(NOW + ms) });
const failed = (reason: string): Verdict => ({ outcome: 'failed', reason });

describe('webhook dispatcher: retry policy', () => {
  describe('backoffMs', () => {
    const cases: [string, number, () => number, number][] = [
      ['the first retry waits the base', 1, midpoint, 1000],
      ['the second waits six times as long', 2, midpoint, 6000],
      ['the third thirty-six times', 3, midpoint, 36_000],
      ['jitter at its low end takes 20 % off', 2, () => 0, 4800],
      ['jitter just below its high end adds almost 20 %', 2, () => 0.999_999, 7200],
      ['jitter in between scales linearly', 1, () => 0.25, 900],
    ];
    for (const [name, retry, random, expected] of cases) {
      it(name, () => expect(backoffMs(retry, BASE, random)).to.equal(expected));
    }

    it('stays within ±20 % of the plain backoff for any random draw', () => {
      for (let i = 0; i < 1000; i++) {
        const wait = backoffMs(2, BASE, Math.random);
        expect(wait).to.be.within(4800, 7200);
      }
    });
  });

  describe('judgeAttempt', () => {
    const cases: [string, AttemptResult, Partial<PolicyContext>, RetryRules, Verdict][] = [
      ['a success code succeeds', { statusCode: 204 }, {}, rules, { outcome: 'succeeded' }],
      [
        'a code listed as success and retry succeeds',
        { statusCode: 200 },
        {},
        { ...rules, retryCodes: [200] },
        { outcome: 'succeeded' },
      ],
      [
        'a code in neither list fails at once',
        { statusCode: 500 },
        {},
        rules,
        failed('status 500 is neither success nor retry'),
      ],
      [
        'a success code of another list does not count',
        { statusCode: 201 },
        {},
        rules,
        failed('status 201 is neither success nor retry'),
      ],
      ['a retry code retries after the backoff', { statusCode: 503 }, {}, rules, retryIn(1000)],
      ['no response (transport error) retries', { statusCode: null }, {}, rules, retryIn(1000)],
      [
        'no response retries even without retry codes',
        { statusCode: null },
        {},
        { ...rules, retryCodes: [] },
        retryIn(1000),
      ],
      [
        'the second attempt backs off six times longer',
        { statusCode: 503 },
        { attempt: 2 },
        rules,
        retryIn(6000),
      ],
      [
        'retryCount 2: the third attempt is the last',
        { statusCode: 503 },
        { attempt: 3 },
        rules,
        failed('retries exhausted'),
      ],
      [
        'retryCount 0: the first attempt is the only one',
        { statusCode: null },
        { attempt: 1 },
        { ...rules, retryCount: 0 },
        failed('retries exhausted'),
      ],
      [
        'a Retry-After longer than the backoff is honoured',
        { statusCode: 429, retryAfterMs: 120_000 },
        {},
        rules,
        retryIn(120_000),
      ],
      [
        'a Retry-After shorter than the backoff does not shorten it',
        { statusCode: 429, retryAfterMs: 10 },
        { attempt: 2 },
        rules,
        retryIn(6000),
      ],
      [
        'a Retry-After of more than an hour is cut to an hour',
        { statusCode: 429, retryAfterMs: 3 * 24 * HOUR },
        {},
        rules,
        retryIn(HOUR),
      ],
      [
        'a Retry-After of exactly an hour is kept',
        { statusCode: 429, retryAfterMs: HOUR },
        {},
        rules,
        retryIn(HOUR),
      ],
      [
        'a retry that falls after the ttl is not made',
        { statusCode: 503 },
        { expiresAt: new Date(NOW + 999) },
        rules,
        failed('the next retry would fall after the ttl'),
      ],
      [
        'a retry that falls exactly on the ttl is made',
        { statusCode: 503 },
        { expiresAt: new Date(NOW + 1000) },
        rules,
        retryIn(1000),
      ],
      [
        'a Retry-After beyond the ttl ends the delivery',
        { statusCode: 429, retryAfterMs: 60_000 },
        { expiresAt: new Date(NOW + 30_000) },
        rules,
        failed('the next retry would fall after the ttl'),
      ],
      [
        'without a ttl (0) an hour-long Retry-After is still made',
        { statusCode: 429, retryAfterMs: HOUR },
        { expiresAt: null },
        rules,
        retryIn(HOUR),
      ],
      [
        'retries exhausted is said before the ttl is looked at',
        { statusCode: 503 },
        { attempt: 3, expiresAt: new Date(NOW - 1) },
        rules,
        failed('retries exhausted'),
      ],
    ];
    for (const [name, result, ctx, retryRules, expected] of cases) {
      it(name, () =>
        expect(judgeAttempt(result, retryRules, context(ctx))).to.deep.equal(expected),
      );
    }

    it('uses Math.random for jitter when no random is given', () => {
      const { random: _none, ...withoutRandom } = context();
      const verdict = judgeAttempt({ statusCode: 503 }, rules, withoutRandom);
      expect(verdict.outcome).to.equal('retry');
      const at = (verdict as { at: Date }).at.getTime();
      expect(at - NOW).to.be.within(800, 1200);
    });
  });

  describe('parseRetryAfter', () => {
    const cases: [string, string | undefined, number | undefined][] = [
      ['absent', undefined, undefined],
      ['empty', '', undefined],
      ['seconds', '120', 120_000],
      ['zero seconds', '0', 0],
      ['seconds with spaces around', ' 30 ', 30_000],
      ['an HTTP date ahead', new Date(NOW + 90_000).toUTCString(), 90_000],
      ['an HTTP date gone by: no wait', new Date(NOW - 90_000).toUTCString(), 0],
      ['unreadable text', 'soon', undefined],
    ];
    for (const [name, header, expected] of cases) {
      it(name, () => expect(parseRetryAfter(header, NOW)).to.equal(expected));
    }
  });
});
