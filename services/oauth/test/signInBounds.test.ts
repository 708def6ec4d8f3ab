// The sign-in's bounds on what a flood can cost others: refused attempts publish at most a few
// events a minute per community and reason, and password checks (scrypt) run at most a few at
// once per community, a queue behind them, a 503 past it.
import { expect } from 'chai';
import { HttpError } from '@idv/http';
import type { Community } from '@idv/platform';
import { PasswordChecks } from '../src/login/passwordChecks.ts';
import { accentColours } from '../src/pages/assets.ts';
import { refusalEvents } from '../src/login/refusalEvents.ts';

const community = (id: string): Community => ({ id, name: id, tenantId: 't' });

describe('sign-in bounds', () => {
  it('publishes at most ten refusal events a minute per community and reason', () => {
    const published: string[] = [];
    let now = 0;
    const refusals = refusalEvents(
      (c, _name, data) => published.push(`${c.id}:${(data as { reason: string }).reason}`),
      () => now,
    );
    for (let i = 0; i < 50; i++) refusals(community('a'), 'cl', 'throttled');
    for (let i = 0; i < 3; i++) refusals(community('a'), 'cl', 'locked');
    for (let i = 0; i < 3; i++) refusals(community('b'), 'cl', 'throttled');
    expect(published.filter((e) => e === 'a:throttled')).to.have.length(10);
    expect(published.filter((e) => e === 'a:locked')).to.have.length(3);
    expect(published.filter((e) => e === 'b:throttled')).to.have.length(3);
    now += 60_000;
    refusals(community('a'), 'cl', 'throttled');
    expect(published.filter((e) => e === 'a:throttled')).to.have.length(11);
  });

  it('runs two checks of a community at once, queues the rest, and leaves other communities free', async () => {
    const checks = new PasswordChecks(2, 3);
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const check = () =>
      new Promise<boolean>((resolve) => {
        most = Math.max(most, ++running);
        releases.push(() => {
          running--;
          resolve(true);
        });
      });
    const flood = Array.from({ length: 5 }, () => checks.run('a', check));
    const refused = await checks.run('a', check).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).to.be.instanceOf(HttpError);
    expect((refused as HttpError).statusCode).to.equal(503);
    // another community is not behind the flood
    const other = checks.run('b', async () => 'b');
    expect(await other).to.equal('b');
    while (releases.length) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(flood)).to.deep.equal([true, true, true, true, true]);
    expect(most).to.equal(2);
  });

  it('gives every accent readable colours: text on the accent, and the accent as text on white', () => {
    expect(accentColours('#0b6e4f')).to.deep.equal({ text: '#ffffff', ink: '#0b6e4f' });
    // a pale brand colour: dark text on its buttons, a darkened ink for links
    const pale = accentColours('#ffe14d');
    expect(pale.text).to.equal('#111111');
    expect(pale.ink).to.not.equal('#ffe14d');
    expect(parseInt(pale.ink.slice(1, 3), 16)).to.be.below(0x90);
  });
});
