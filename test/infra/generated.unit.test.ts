// The files generated from the code (infra/render.ts) are committed as the code renders them, and
// they follow the list of connector types: a type in the list gets its worker table entry, compose
// service, queues, scrape target and Kubernetes manifests, a type out of it gets none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { CONNECTORS } from '@idv/contracts';
import { REPO_ROOT, renderAll } from '../../infra/render.ts';

describe('generated files (infra/render.ts)', function () {
  this.timeout(60_000);

  it('each committed file is what the code renders (else: npx tsx infra/render.ts --write)', async () => {
    const stale = Object.entries(await renderAll())
      .filter(([file, text]) => readFileSync(join(REPO_ROOT, file), 'utf8') !== text)
      .map(([file]) => file);
    expect(stale, 'run `npx tsx infra/render.ts --write` and commit').to.deep.equal([]);
  });

  it('renders every per-type list from the list of connector types, and only from it', async () => {
    const [kept, dropped] = [CONNECTORS.slice(0, 2), CONNECTORS.slice(2)];
    const files = await renderAll(kept);
    const compose = parse(files['docker-compose.yml']!, { merge: true }) as {
      services: Record<string, unknown>;
    };
    const queues = (
      JSON.parse(files['infra/rabbitmq/definitions.json']!) as { queues: { name: string }[] }
    ).queues.map((q) => q.name);
    const prometheus = files['infra/observability/prometheus.yml']!;
    const table = files['services/connector-worker/src/connectors/index.ts']!;
    const kustomization = parse(files['infra/k8s/base/kustomization.yaml']!) as {
      resources: string[];
    };
    for (const { type } of kept) {
      expect(compose.services, type).to.have.property(type);
      expect(queues, type).to.include.members([
        `idv.connector.${type}`,
        `idv.connector.${type}.dead`,
      ]);
      expect(prometheus, type).to.contain(`- ${type}\n`);
      expect(table, type).to.contain(`./${type}/adapter.ts`);
      expect(kustomization.resources, type).to.include(`connectors/${type}.yaml`);
      expect(files, type).to.have.property(`infra/k8s/base/connectors/${type}.yaml`);
    }
    for (const { type } of dropped) {
      expect(compose.services, type).not.to.have.property(type);
      expect(
        queues.filter((q) => q.includes(`.${type}`)),
        type,
      ).to.deep.equal([]);
      expect(prometheus, type).not.to.contain(`- ${type}\n`);
      expect(table, type).not.to.contain(`./${type}/`);
      expect(files, type).not.to.have.property(`infra/k8s/base/connectors/${type}.yaml`);
    }
  });
});
