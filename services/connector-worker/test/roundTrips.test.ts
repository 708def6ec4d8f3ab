// Provider round trips a verification saves: tokens kept for their lifetime (shared/accessTokens.ts)
// alone, then through workers against the sandbox, whose call counts per scope show what reached
// it; and the calls an adapter makes after its answer (provider/trailing.ts).
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '@idv/observability';
import { expect } from 'chai';
import { ProviderRejected, ProviderUnavailable } from '../src/outcomes.ts';
import { afterAnswer } from '../src/connectors/connector.ts';
import { AccessTokens } from '../src/connectors/shared/accessTokens.ts';
import { accountOf } from '../src/provider/accounts.ts';
import { TrailingCalls } from '../src/provider/trailing.ts';
import { dl, faces, key, testy } from '@idv/testing/connectors/fixtures';
import { startHarness, type Harness } from './harness.ts';

describe('access tokens kept for their lifetime', () => {
  const issuer = (expiresInS?: number) => {
    let issued = 0;
    return {
      fetch: async () => {
        issued += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { token: `t${issued}`, expiresInS };
      },
      count: () => issued,
    };
  };
  const echo = async (token: string) => token;
  const account = (verifier: string) =>
    accountOf(
      {
        verifier: { id: verifier, connectorUrl: 'https://provider.example' },
        context: { communityId: 'c-1' },
      },
      {},
    );

  it('fetches once for many calls, sequential or at the same moment, per account', async () => {
    const tokens = new AccessTokens();
    const a = issuer(600);
    expect(await tokens.use(account('a'), a.fetch, echo)).to.equal('t1');
    expect(await tokens.use(account('a'), a.fetch, echo)).to.equal('t1');
    const together = await Promise.all(
      Array.from({ length: 20 }, () => tokens.use(account('b'), a.fetch, echo)),
    );
    expect(new Set(together)).to.deep.equal(new Set(['t2']));
    expect(a.count()).to.equal(2);
  });

  it('keeps no token whose lifetime the provider did not say, and gives up a short one early', async () => {
    const tokens = new AccessTokens();
    const unsaid = issuer(undefined);
    await tokens.use(account('a'), unsaid.fetch, echo);
    await tokens.use(account('a'), unsaid.fetch, echo);
    expect(unsaid.count()).to.equal(2);
    const short = issuer(0.05); // kept for half of 50 ms
    await tokens.use(account('b'), short.fetch, echo);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await tokens.use(account('b'), short.fetch, echo);
    expect(short.count()).to.equal(2);
  });

  it('replaces a kept token the provider refuses with 401, once', async () => {
    const tokens = new AccessTokens();
    const a = issuer(600);
    await tokens.use(account('a'), a.fetch, echo); // t1 kept
    const refusing = async (token: string) => {
      if (token === 't1') throw new ProviderRejected('revoked', 401);
      return token;
    };
    expect(await tokens.use(account('a'), a.fetch, refusing)).to.equal('t2');
    expect(await tokens.use(account('a'), a.fetch, echo)).to.equal('t2');
    const always = async () => {
      throw new ProviderRejected('refused', 401);
    };
    let thrown: unknown;
    await tokens.use(account('a'), a.fetch, always).catch((err: unknown) => (thrown = err));
    expect(thrown).to.be.instanceOf(ProviderRejected);
    expect(a.count()).to.equal(3); // t2 refused, t3 fetched and refused too: no third try
  });

  it('shares a failed fetch with its waiters and tries again on the next call', async () => {
    const tokens = new AccessTokens();
    let fail = true;
    const fetch = async () => {
      if (fail) throw new ProviderUnavailable('provider_5xx', 'token endpoint answered 503');
      return { token: 'ok', expiresInS: 600 };
    };
    const failed = await Promise.allSettled([
      tokens.use(account('a'), fetch, echo),
      tokens.use(account('a'), fetch, echo),
    ]);
    expect(failed.map((f) => f.status)).to.deep.equal(['rejected', 'rejected']);
    fail = false;
    expect(await tokens.use(account('a'), fetch, echo)).to.equal('ok');
  });
});

describe('provider calls per verification, counted at the sandbox', function () {
  this.timeout(30_000);
  let harness: Harness;
  const scoped = () => {
    const scope = randomBytes(4).toString('hex');
    return { scope, url: `${harness.sandbox.url}/s/${scope}` };
  };
  /** The sandbox's count of a scope's calls once it stops changing: a delete may follow a reply. */
  const settledCalls = async (scope: string) => {
    let seen = -1;
    for (let i = 0; i < 50 && seen !== harness.sandbox.faults.callsOf(scope); i++) {
      seen = harness.sandbox.faults.callsOf(scope);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return seen;
  };

  before(async () => {
    harness = await startHarness();
    await Promise.all(
      (['document_auth_b', 'license_registry', 'face_compare_a'] as const).map((type) =>
        harness.startWorker(type),
      ),
    );
  });
  after(() => harness?.stop());

  it('document_auth_b fetches its token once for the account, not once a job, and deletes each transaction', async () => {
    const { scope, url } = scoped();
    const ask = () =>
      harness.ask({
        type: 'document_auth_b',
        kind: 'dl_authenticate',
        connectorUrl: url,
        config: { clientId: 'c', clientSecretKey: key, apiKey: key },
        document: dl('testy'),
      });
    expect((await ask()).outcome).to.equal('completed');
    expect(await settledCalls(scope)).to.equal(3); // token, transaction, delete
    const replies = await Promise.all(Array.from({ length: 10 }, ask));
    expect(replies.every((r) => r.outcome === 'completed')).to.equal(true);
    expect(await settledCalls(scope)).to.equal(3 + 10 * 2);
  });

  it('license_registry asks a site for a token once, then only verifies', async () => {
    const { scope, url } = scoped();
    const ask = () =>
      harness.ask({
        type: 'license_registry',
        kind: 'dl_verify',
        connectorUrl: url,
        config: { messageOriginatorId: 'IDV', messageDestinationId: 'REG' },
        document: { documentType: 'DL', documentId: 'D0000001', state: 'CA', ...testy },
      });
    for (let i = 0; i < 3; i++) expect((await ask()).result).to.include({ status: 'verified' });
    expect(harness.sandbox.faults.callsOf(scope)).to.equal(1 + 3);
  });

  it('face_compare_a detects both faces at once', async () => {
    const { scope, url } = scoped();
    harness.sandbox.faults.set(scope, { latencyMs: 200 });
    const reply = await harness.ask({
      type: 'face_compare_a',
      kind: 'face_compare',
      config: { accounts: [{ apiKey: key, url, urlVerify: `${url}/face/v1.0/verify` }] },
      document: faces('testy', 'testy'),
    });
    expect(reply.result).to.include({ status: 'verified' });
    expect(harness.sandbox.faults.callsOf(scope)).to.equal(3); // two detections, one verify
    expect(harness.sandbox.faults.peakOf(scope)).to.equal(2);
  });
});

describe('provider calls after the answer', () => {
  it('hold the slot until they end, report a failure instead of throwing, and are drained', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      service: 'test',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const trailing = new TrailingCalls(logger);
    let released = 0;
    let finish!: () => void;
    const slow = new Promise<void>((resolve) => (finish = resolve));
    trailing.hold(afterAnswer(slow), { jobId: 'j1', verifierTag: 'v' }, () => (released += 1));
    const failing = afterAnswer(Promise.reject(new Error('answered 404')));
    trailing.hold(failing, { jobId: 'j2', verifierTag: 'v' }, () => (released += 1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(released).to.equal(1); // the failed one let go of its slot, the slow one holds it
    expect(trailing.size).to.equal(1);
    expect(lines.join('')).to.include('answered 404').and.include('"jobId":"j2"');
    const drained = trailing.drain();
    finish();
    await drained;
    expect(released).to.equal(2);
    expect(trailing.size).to.equal(0);
  });
});
