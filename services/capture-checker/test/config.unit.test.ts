// A capture checker's capacity: two checks held per image thread, and a tenant's or a community's
// share counted in threads (half of them, at least one), so a tenant never runs on every thread of
// a worker of two or more while another tenant waits.
import { expect } from 'chai';
import { capacityOf, loadCheckerConfig } from '../src/config.ts';

const settings = (env: Record<string, string>) =>
  loadCheckerConfig({ LOG_LEVEL: 'silent', ...env });

describe('capture checker: capacity and shares', () => {
  it('holds two checks a thread; a tenant and a community get half the threads, at least one', () => {
    expect(capacityOf(settings({ CAPTURE_CHECK_THREADS: '1' }))).to.deep.equal({
      threads: 1,
      held: 2,
      perTenant: 1,
      perCommunity: 1,
    });
    expect(capacityOf(settings({ CAPTURE_CHECK_THREADS: '2' }))).to.deep.equal({
      threads: 2,
      held: 4,
      perTenant: 1,
      perCommunity: 1,
    });
    expect(capacityOf(settings({ CAPTURE_CHECK_THREADS: '8' }))).to.deep.equal({
      threads: 8,
      held: 16,
      perTenant: 4,
      perCommunity: 4,
    });
  });

  it('takes configured shares, never more than it holds', () => {
    const configured = settings({
      CAPTURE_CHECK_THREADS: '2',
      CAPTURE_CHECKER_PER_TENANT: '3',
      CAPTURE_CHECKER_PER_COMMUNITY: '99',
    });
    expect(capacityOf(configured)).to.deep.include({ perTenant: 3, perCommunity: 4 });
  });
});
