// The one account key of what a worker keeps per provider account (provider/accounts.ts): every
// part of the job it is built from makes a key of its own, and no part is readable in it.
import { expect } from 'chai';
import { accountOf, within, type AccountOwner } from '../src/provider/accounts.ts';

const job: AccountOwner = {
  verifier: { id: 'verifier-a', connectorUrl: 'https://provider.example' },
  context: { communityId: 'community-a' },
};
const config = {
  apiKey: 'testy-secret-key',
  url: 'https://provider.example/verify',
  n: { a: 1, b: 2 },
};

describe('connector worker: the account key of a job', () => {
  it('is the same for the same verifier, community, address and config (member order aside)', () => {
    const reordered = { n: { b: 2, a: 1 }, url: config.url, apiKey: config.apiKey };
    expect(accountOf(job, config)).to.equal(accountOf(job, reordered));
  });

  it('differs with the verifier, the community, the connectorUrl or any member of the config', () => {
    const keys = [
      accountOf(job, config),
      accountOf({ ...job, verifier: { ...job.verifier, id: 'verifier-b' } }, config),
      accountOf({ ...job, context: { communityId: 'community-b' } }, config),
      accountOf(
        { ...job, verifier: { ...job.verifier, connectorUrl: 'https://elsewhere.example' } },
        config,
      ),
      accountOf(job, { ...config, apiKey: 'testy-other-key' }),
      accountOf(job, { ...config, url: 'https://elsewhere.example/verify' }),
      accountOf(job, { ...config, n: { a: 1, b: 3 } }),
    ];
    expect(new Set(keys).size).to.equal(keys.length);
  });

  it('keeps the account in every part of it, and tells parts (certificate bytes, URLs) apart', () => {
    const a = accountOf(job, config);
    const b = accountOf({ ...job, context: { communityId: 'community-b' } }, config);
    const pfx = Buffer.from('testy certificate');
    const keys = [
      within(a, pfx, 'https://provider.example/auth', 'https://provider.example/verify'),
      within(b, pfx, 'https://provider.example/auth', 'https://provider.example/verify'),
      within(
        a,
        Buffer.from('other certificate'),
        'https://provider.example/auth',
        'https://provider.example/verify',
      ),
      within(a, undefined, 'https://provider.example/auth', 'https://provider.example/verify'),
      within(a, pfx, 'https://provider.example/auth', 'https://elsewhere.example/verify'),
      within(a, pfx, 'https://provider.example/auth/https://provider.example/verify'),
    ];
    expect(new Set(keys).size).to.equal(keys.length);
    expect(within(a, pfx, 'x')).to.equal(within(a, Buffer.from(pfx), 'x'));
  });

  it('holds no secret, URL or id in readable form', () => {
    const key = within(accountOf(job, config), 'https://provider.example/auth');
    for (const part of ['testy', 'secret', 'provider', 'verifier-a', 'community-a'])
      expect(key).to.not.contain(part);
  });
});
