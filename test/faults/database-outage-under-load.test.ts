// PostgreSQL taken away for IDV_FAULTS_OUTAGE_S seconds (10 by default) while callers keep
// creating webhooks and verifying: clear 503s with the error body meanwhile, recovery without a
// restart, and no half-written record: every webhook row there is opens whole through the API,
// and every create that was answered 200 is there, exactly as sent.
import { expect } from 'chai';
import { testServers } from '@idv/testing/testServers';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';
import {
  databaseOutage,
  expectOutageBehaviour,
  loadThroughOutage,
  outageMs,
  tally,
  type Outage,
  type PhasedLoad,
} from './support.ts';

describe(`faults: PostgreSQL away for ${outageMs / 1000} s under load`, function () {
  this.timeout(180_000 + outageMs);
  let outage: Outage;
  let world: VerifyWorld;

  before(async () => {
    outage = await databaseOutage((await testServers()).postgresUrl);
    // the services reach the suite's database through the outage; seeding and checks go direct
    world = await startVerifyWorld({
      name: 'dbload',
      overridesFor: (databaseUrl) => {
        const through = new URL(databaseUrl);
        through.host = new URL(outage.url).host;
        return { DATABASE_URL: through.toString() };
      },
    });
  });
  after(async () => {
    await outage?.start();
    await world?.stop();
    await outage?.close();
  });

  it('answers 503 meanwhile, recovers by itself, and leaves no half-written record', async () => {
    const { community: c, database } = world.platform;
    const base = `/tenant/${c.tenantId}/community/${c.id}`;
    const webhooks = world.client('webhooks', 'service');
    const caller = world.client('docverify', 'community');
    const sent = new Map<unknown, { name: string; tags: string[] }>();
    const loads: PhasedLoad[] = [
      {
        concurrency: 4,
        ok: 200,
        op: async (i) => {
          const named = { name: `hook ${i}`, tags: [`n${i}`] };
          const res = await webhooks.request('PUT', `${base}/webhook`, {
            ...webhookBody(`https://hooks.example.test/${i}`),
            ...named,
          });
          sent.set(res.body, named);
          return res;
        },
      },
      {
        concurrency: 2,
        ok: 200,
        op: () => caller.encryptedRequest('POST', '/verify', world.verifyBody()),
      },
    ];
    const run = await loadThroughOutage(outage, loads, 40, 40);
    const [createOutcomes, verifyOutcomes] = run.outcomes as [
      (typeof run.outcomes)[0],
      (typeof run.outcomes)[0],
    ];
    console.log(
      `      database away ${run.awayMs} ms; webhook creates ${JSON.stringify(tally(createOutcomes))}; /verify ${JSON.stringify(tally(verifyOutcomes))}`,
    );
    expectOutageBehaviour(run, loads);

    // every row there opens whole through the API (sealed secrets included), every create
    // answered 200 is among them as sent, and none is left over beyond the unanswered creates
    const listed = new Map<string, { name: string; tags: string[] }>();
    for (let pIndex = 0; ; pIndex++) {
      const page = await webhooks.request<{
        page: { total: number };
        data: { _id: string; name: string; tags: string[] }[];
      }>('POST', `${base}/webhooks/fetch`, { pIndex, pSize: 100 });
      expect(page.status).to.equal(200);
      for (const w of page.body.data) listed.set(w._id, w);
      if (listed.size >= page.body.page.total || page.body.data.length === 0) break;
    }
    const rows = (await database
      .db('webhooks.webhooks')
      .where({ community_id: c.id })
      .pluck('id')) as string[];
    expect([...listed.keys()].sort()).to.deep.equal([...rows].sort());
    const created = createOutcomes.filter((o) => o.status === 200);
    for (const o of created) {
      const { _id: id } = o.body as { _id: string };
      const body = sent.get(o.body)!;
      expect(listed.get(id), `created ${id}`).to.deep.include({ name: body.name, tags: body.tags });
    }
    const unanswered = createOutcomes.filter((o) => o.status !== 200).length;
    expect(rows.length).to.be.within(created.length, created.length + unanswered);
  });
});
