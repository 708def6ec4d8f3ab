// Each connector type against the provider sandbox, through the broker RPC to a worker started
// in-process: the expected verified / not verified / inconclusive answer of every case of its kit
// (@idv/testing/connectors/<type>), the typed result, and refusals (bad key, bad config) as
// invalid_request rather than provider failures.
import { expect } from 'chai';
import { cloud } from '@idv/testing/connectors/face_cloud';
import { faces, image, key, testy } from '@idv/testing/connectors/fixtures';
import { testKits } from '@idv/testing/connectors/kit';
import { startHarness, type Harness } from './harness.ts';

const CASES = (await testKits()).flatMap((kit) => kit.cases.map((c) => ({ ...c, type: kit.type })));

describe('connector adapters against the provider sandbox', function () {
  this.timeout(30_000);
  let harness: Harness;

  before(async () => {
    harness = await startHarness();
    const types = [...new Set(CASES.map((c) => c.type))];
    await Promise.all(types.map((type) => harness.startWorker(type)));
  });
  after(() => harness?.stop());

  for (const c of CASES) {
    it(`${c.name}: ${c.status}`, async () => {
      const reply = await harness.ask({
        type: c.type,
        kind: c.kind,
        config: c.config(harness.sandbox.url),
        document: c.document,
      });
      expect(reply, JSON.stringify(reply.error)).to.include({
        outcome: 'completed',
        authority: c.type,
      });
      const result = reply.result as Record<string, unknown>;
      expect(result.status).to.equal(c.status);
      expect(result.verified).to.equal(c.status === 'verified');
      c.check?.(result);
    });
  }

  it('hands back the raw provider answer only when returnRawData', async () => {
    const base = {
      type: 'identity_data',
      kind: 'ssn_verify',
      config: { apiKey: key },
      document: testy,
    } as const;
    const withRaw = await harness.ask({ ...base, returnRawData: true });
    expect(withRaw.raw).to.include({ found: true });
    const without = await harness.ask(base);
    expect(without).not.to.have.property('rawSealed');
  });

  const refusals: [string, Parameters<Harness['ask']>[0], string][] = [
    [
      'a wrong key (provider 401)',
      { type: 'identity_data', kind: 'ssn_verify', config: { apiKey: 'wrong' }, document: testy },
      'provider_rejected',
    ],
    [
      'a wrong cloud secret (bad SigV4 signature)',
      {
        type: 'face_cloud',
        kind: 'face_compare',
        config: { ...cloud, awsSecretKey: 'wrong' },
        document: faces('a', 'a'),
      },
      'provider_rejected',
    ],
    [
      'a config member the type does not know',
      {
        type: 'face_compare_b',
        kind: 'face_compare',
        config: { apiKey: key, typo: 1 },
        document: faces('a', 'a'),
      },
      'invalid_config',
    ],
    [
      'a kind the type cannot do',
      { type: 'face_compare_b', kind: 'dl_verify', config: {}, document: {} },
      'unsupported_kind',
    ],
    [
      'missing images',
      {
        type: 'face_compare_b',
        kind: 'face_compare',
        config: { apiKey: key },
        document: { image1: image('FACE:x') },
      },
      'invalid_input', // refused by us: the provider is never called
    ],
  ];
  for (const [name, request, code] of refusals) {
    it(`answers invalid_request for ${name}`, async () => {
      const reply = await harness.ask(request);
      expect(reply.outcome).to.equal('invalid_request');
      expect(reply.error?.code).to.equal(code);
    });
  }
});
