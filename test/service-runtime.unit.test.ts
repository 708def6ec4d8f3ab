// Every service and worker starts one way, through libs/service-runtime: its start.ts builds the
// runtime first and serves last, builds no logger, broker or server of its own, and its main.ts
// hands it to runService. The provider sandbox stands in for outside providers and is no part of
// the platform; the admin CLI is a command, not a process that serves.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';

const root = new URL('../services/', import.meta.url);
/** a new service joins this list */
const services = [
  'connector-worker',
  'docverify-gateway',
  'oauth',
  'webhook-dispatcher',
  'webhooks-gateway',
];

const source = (service: string, file: string) =>
  readFileSync(new URL(`${service}/src/${file}`, root), 'utf8');

describe('one way to start a service', () => {
  for (const service of services) {
    it(`${service}: start.ts builds the runtime first and serves last, nothing by hand`, () => {
      const text = source(service, 'start.ts');
      const runtime = text.search(/\bcreate(Service|Process)Runtime\(/);
      const serve = text.search(/\breturn serve(Health)?\(|\bawait serveHealth\(/);
      expect(runtime, 'createServiceRuntime or createProcessRuntime').to.be.greaterThan(-1);
      expect(serve, 'serve or serveHealth').to.be.greaterThan(runtime);
      for (const byHand of [
        /\bcreateLogger\(/,
        /\bcreateBroker\(/,
        /\bcreateMetricsRegistry\(/,
        /\bcreateServer\(/,
        /\bnew Lifecycle\(/,
      ])
        expect(text, `${byHand}`).to.not.match(byHand);
    });

    it(`${service}: main.ts runs it through runService`, () => {
      expect(source(service, 'main.ts')).to.match(/\bawait runService\(/);
    });
  }
});
