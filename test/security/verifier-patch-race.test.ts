// Issue 14, finding 4: two concurrent PATCHes of a verifier (one moving connectorUrl with a
// secret-free config, one sending the masked secret back, "keep it") never compose into the stored
// secret at the new address: each PATCH is judged against the row it writes, and a PATCH whose row
// changed since it was read answers 409. Verification configs, patched the same way, lose no change.
import { expect } from 'chai';
import { IdvClient, type IdvResponse } from '@idv/client';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';
import { eventually } from '@idv/testing/eventually';

const MASK = '********';
const STORED_KEY = 'testy-stored-key';
const HOME = 'https://provider.example/identity';
const ELSEWHERE = 'https://elsewhere.example/collect';
const ROUNDS = 20;

type Shown = { connectorUrl: string; config: Record<string, unknown> };
type Answer = IdvResponse<Record<string, unknown>>;

/** A refusal carries the standard error body. */
function expectErrorBody(res: Answer, status: number): void {
  expect(res.body, JSON.stringify(res.body)).to.include({ statusCode: status });
  expect(res.body.error).to.be.a('string');
  expect(res.body.message).to.be.a('string');
}

describe('security: concurrent PATCHes of a verifier never move its stored secret', function () {
  this.timeout(120_000);
  let platform: RunningPlatform;
  let service: IdvClient;
  let system: IdvClient;
  const base = () => `/verifier/community/${platform.community.id}`;
  const client = (licence: keyof RunningPlatform['licences']) =>
    new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences[licence],
    });

  before(async () => {
    platform = await startPlatform();
    service = client('service');
    system = client('system');
  });
  after(async () => platform?.stop());

  const createVerifier = async (tag: string): Promise<string> => {
    const res = await service.request<{ id: string }>('PUT', base(), {
      name: tag,
      tag,
      type: 'identity_data',
      connectorUrl: HOME,
      config: { apiKey: STORED_KEY },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id;
  };

  /**
   * Holds the row of `table` locked while a request runs, changes it under the request's feet
   * (another replica's write), and gives the request's answer once it got past the lock.
   */
  const changedUnderfoot = async (
    table: string,
    id: string,
    request: () => Promise<Answer>,
  ): Promise<Answer> => {
    const db = platform.database.db;
    const trx = await db.transaction();
    try {
      await trx(table).where({ id }).forUpdate().first();
      const { rows } = (await trx.raw('select pg_backend_pid() as pid')) as {
        rows: { pid: number }[];
      };
      const holder = rows[0]!.pid;
      const answer = request();
      // the request has read and judged the row once its write waits for our lock (ours alone:
      // another session waiting on some other lock says nothing)
      await eventually(
        'the request to wait for the row',
        async () => {
          const [row] = (await db('pg_stat_activity')
            .count('* as waiting')
            .whereRaw('? = any(pg_blocking_pids(pid))', [holder])) as {
            waiting: string | number;
          }[];
          return Number(row?.waiting) > 0;
        },
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      await trx(table)
        .where({ id })
        .update({ version: db.raw('version + 1'), updated_at: db.fn.now() });
      await trx.commit();
      return await answer;
    } catch (err) {
      await trx.rollback().catch(() => undefined);
      throw err;
    }
  };

  it(`over ${ROUNDS} rounds, the stored key never ends up at the new address`, async () => {
    const outcomes = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const tag = `race-${round}`;
      await createVerifier(tag);
      const shown = await service.request<Shown>('GET', `${base()}/${tag}`);
      expect(shown.body.config).to.deep.equal({ apiKey: MASK });
      const [move, keep] = (await Promise.all([
        service.request('PATCH', `${base()}/${tag}`, { connectorUrl: ELSEWHERE, config: {} }),
        service.request('PATCH', `${base()}/${tag}`, { config: shown.body.config }),
      ])) as [Answer, Answer];
      const stored = (await system.request<Shown>('GET', `${base()}/${tag}`)).body;
      const what = JSON.stringify({ round, move: move.body, keep: keep.body, stored });

      expect(stored.connectorUrl === ELSEWHERE && stored.config.apiKey === STORED_KEY, what).to.be
        .false;
      expect([200, 409], what).to.include(move.status);
      expect([200, 400, 409], what).to.include(keep.status);
      if (move.status !== 200) expectErrorBody(move, move.status);
      if (keep.status !== 200) expectErrorBody(keep, keep.status);
      expect(move.status === 200 || keep.status === 200, what).to.be.true;
      // the move stored: no secret with it, whatever the other request answered
      if (move.status === 200 && stored.connectorUrl === ELSEWHERE)
        expect(stored.config, what).to.deep.equal({});
      // the move refused: the key stays at home
      if (move.status !== 200)
        expect(stored, what).to.deep.include({
          connectorUrl: HOME,
          config: { apiKey: STORED_KEY },
        });
      const outcome = `move ${move.status}, keep ${keep.status}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect([...outcomes.values()].reduce((a, b) => a + b, 0)).to.equal(ROUNDS);
  });

  it('a PATCH judged against a row another write changed since answers 409 and stores nothing', async () => {
    const id = await createVerifier('underfoot');
    const res = await changedUnderfoot('docverify.verifiers', id, () =>
      service.request('PATCH', `${base()}/underfoot`, { config: { apiKey: MASK } }),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expectErrorBody(res, 409);
    expect(res.body.error).to.equal('Conflict');
    const stored = await system.request<Shown & { name: string }>('GET', `${base()}/underfoot`);
    expect(stored.body).to.deep.include({ connectorUrl: HOME, config: { apiKey: STORED_KEY } });
  });

  it('a plain PATCH, one after the other, still works (and keeps the masked key at home)', async () => {
    await createVerifier('plain');
    const renamed = await service.request<Shown & { name: string }>('PATCH', `${base()}/plain`, {
      name: 'renamed',
      config: { apiKey: MASK },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
    expect(renamed.body).to.deep.include({ name: 'renamed', config: { apiKey: MASK } });
    const moved = await service.request<Shown>('PATCH', `${base()}/plain`, {
      connectorUrl: ELSEWHERE,
      config: { apiKey: 'testy-new-key' },
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const stored = await system.request<Shown & { name: string }>('GET', `${base()}/plain`);
    expect(stored.body).to.deep.include({
      name: 'renamed',
      connectorUrl: ELSEWHERE,
      config: { apiKey: 'testy-new-key' },
    });
  });

  describe('verification configs', () => {
    const configs = () => `/verificationConfig/community/${platform.community.id}`;
    type Config = { id: string; name: string; ssn_verify?: object[]; person_verify?: object[] };

    before(async () => createVerifier('provider'));

    const createConfig = async (tag: string): Promise<string> => {
      const res = await service.request<{ id: string }>('PUT', configs(), {
        tenantId: platform.community.tenantId,
        tag,
        ssn_verify: [{ verifier: 'provider' }],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.id;
    };

    it(`over ${ROUNDS} rounds, two PATCHes of different arrays both stay or one answers 409`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const tag = `kyc-${round}`;
        await createConfig(tag);
        const [person, ssn] = (await Promise.all([
          service.request('PATCH', `${configs()}/${tag}`, {
            person_verify: [{ verifier: 'provider' }],
          }),
          service.request('PATCH', `${configs()}/${tag}`, {
            ssn_verify: [{ verifier: 'provider', skip: true }],
          }),
        ])) as [Answer, Answer];
        const stored = (await service.request<Config>('GET', `${configs()}/${tag}`)).body;
        const what = JSON.stringify({ round, person: person.body, ssn: ssn.body, stored });
        expect([200, 409], what).to.include(person.status);
        expect([200, 409], what).to.include(ssn.status);
        if (person.status === 409) expectErrorBody(person, 409);
        if (ssn.status === 409) expectErrorBody(ssn, 409);
        // every change answered 200 is stored: none is lost to the other
        if (person.status === 200)
          expect(stored.person_verify?.[0], what).to.include({ verifier: 'provider' });
        if (ssn.status === 200)
          expect(stored.ssn_verify?.[0], what).to.include({ verifier: 'provider', skip: true });
      }
    });

    it('a PATCH judged against a config another write changed since answers 409', async () => {
      const id = await createConfig('kyc-underfoot');
      const res = await changedUnderfoot('docverify.verification_configs', id, () =>
        service.request('PATCH', `${configs()}/kyc-underfoot`, { name: 'renamed' }),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(409);
      expectErrorBody(res, 409);
      const stored = await service.request<Config>('GET', `${configs()}/kyc-underfoot`);
      expect(stored.body.name).to.not.equal('renamed');
    });
  });
});
