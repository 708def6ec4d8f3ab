// infra/k8s: every manifest validated against the Kubernetes (and KEDA) JSON schemas that
// kubernetes-models ships (offline), and the probes, budgets and scalers each workload needs. That
// the YAML is what manifests.ts builds is test/infra/generated.unit.test.ts's. Also the settings the
// kustomizations give the operator console, its client's secret in the Secret only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect } from 'chai';
import { parseAllDocuments, parse } from 'yaml';
import { CONNECTOR_TYPES } from '@idv/contracts';
import { HTTP_SERVICES } from '../../infra/k8s/manifests.ts';

const ROOT = 'infra/k8s';
type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; spec?: unknown };
type Model = new (data: unknown) => { validate(): void };

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return path.endsWith('.yaml') ? [path] : [];
  });
}
const isKustomization = (path: string) => path.endsWith('kustomization.yaml');
const docsOf = (path: string) =>
  parseAllDocuments(readFileSync(path, 'utf8')).map((d) => d.toJS() as Manifest);
const manifests = yamlFiles(ROOT)
  .filter((path) => !isKustomization(path))
  .flatMap((path) => docsOf(path).map((doc) => ({ path, doc })));
const ofKind = (kind: string) => manifests.filter((m) => m.doc.kind === kind).map((m) => m.doc);

/** The kubernetes-models (or KEDA models) class of an apiVersion and kind. */
async function modelOf(apiVersion: string, kind: string): Promise<Model> {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const module = (
    group === 'keda.sh'
      ? await import(`@kubernetes-models/keda/keda.sh/${version}/${kind}`)
      : await import(`kubernetes-models/${group ? `${group}/` : ''}${version}/${kind}`)
  ) as Record<string, Model>;
  return module[kind]!;
}

interface Container {
  name: string;
  command?: string[];
  env?: { name: string; value?: string }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
}
type Generator = { literals?: string[] }[];
/** The `KEY=value` literals a kustomization's ConfigMap or Secret generators give, by key. */
function generated(path: string, generator: 'configMapGenerator' | 'secretGenerator') {
  const kustomization = parse(readFileSync(path, 'utf8')) as Record<string, Generator | undefined>;
  const literals = (kustomization[generator] ?? []).flatMap((g) => g.literals ?? []);
  return new Map(literals.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}
const BASE = `${ROOT}/base/kustomization.yaml`;
const DEV = `${ROOT}/overlays/dev/kustomization.yaml`;

interface DeploymentSpec {
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: { containers: Container[] } };
}

describe('Kubernetes manifests', () => {
  it('every object is valid against its Kubernetes or KEDA schema', async () => {
    expect(manifests.length).to.be.above(40);
    const problems: string[] = [];
    for (const { path, doc } of manifests) {
      try {
        const Model = await modelOf(doc.apiVersion, doc.kind);
        new Model(doc).validate();
      } catch (err) {
        problems.push(`${path} ${doc.kind}/${doc.metadata?.name}: ${(err as Error).message}`);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('the kustomizations list every manifest file, and only existing ones', () => {
    const listed = new Set<string>();
    for (const path of yamlFiles(ROOT).filter(isKustomization)) {
      const kustomization = parse(readFileSync(path, 'utf8')) as {
        kind: string;
        resources: string[];
      };
      expect(kustomization.kind, path).to.equal('Kustomization');
      for (const resource of kustomization.resources) {
        const target = join(dirname(path), resource);
        expect(() => statSync(target), `${path}: ${resource}`).to.not.throw();
        listed.add(relative('.', target));
      }
    }
    const files = yamlFiles(ROOT).filter((path) => !isKustomization(path));
    expect(files.filter((file) => !listed.has(file))).to.deep.equal([]);
  });

  it('every workload has readiness on /healthz?ready=1, liveness on /healthz, requests and a memory limit', () => {
    for (const deployment of ofKind('Deployment')) {
      const name = deployment.metadata.name;
      for (const container of (deployment.spec as DeploymentSpec).template.spec.containers) {
        if (name !== 'provider-sandbox') {
          expect(container.readinessProbe?.httpGet?.path, name).to.equal('/healthz?ready=1');
        }
        expect(container.livenessProbe?.httpGet?.path, name).to.equal('/healthz');
        expect(container.resources?.requests, name).to.have.keys('cpu', 'memory');
        expect(container.resources?.limits, name).to.have.property('memory');
      }
    }
  });

  it('every Deployment but the dev sandbox has a PodDisruptionBudget selecting its pods', () => {
    const budgets = ofKind('PodDisruptionBudget').map(
      (b) => (b.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
    );
    for (const deployment of ofKind('Deployment')) {
      if (deployment.metadata.name === 'provider-sandbox') continue;
      const labels = (deployment.spec as DeploymentSpec).template.metadata.labels;
      const covered = budgets.some((selector) =>
        Object.entries(selector).every(([key, value]) => labels[key] === value),
      );
      expect(covered, deployment.metadata.name).to.equal(true);
    }
  });

  it('each HTTP service (the console too) has its Deployment, a Service on its port and more than one replica', () => {
    expect(HTTP_SERVICES.map((s) => s.name)).to.include('console');
    const deployments = new Map(ofKind('Deployment').map((d) => [d.metadata.name, d]));
    const services = new Map(ofKind('Service').map((s) => [s.metadata.name, s]));
    for (const { name, entry, port } of HTTP_SERVICES) {
      const deployment = deployments.get(name);
      const container = (deployment?.spec as DeploymentSpec | undefined)?.template.spec
        .containers[0];
      expect(container?.command, name).to.include(entry);
      expect((deployment?.spec as { replicas: number }).replicas, name).to.be.above(1);
      const service = services.get(name)?.spec as { ports: { port: number }[] } | undefined;
      const ports = service?.ports.map((p) => p.port);
      expect(ports, name).to.deep.equal([port]);
    }
  });

  it("the console's issuer and gateways are in the ConfigMap, its client only in the Secret", () => {
    const config = generated(BASE, 'configMapGenerator');
    const devConfig = generated(DEV, 'configMapGenerator');
    // one public https address, the same for browsers and the console's pods
    expect(config.get('CONSOLE_PUBLIC_URL')).to.match(/^https:\/\//);
    expect(config.get('CONSOLE_OIDC_ISSUER')).to.match(/^https:\/\/.+\/community\/operators$/);
    expect(config.get('DOCVERIFY_INTERNAL_URL')).to.equal('http://docverify-gateway:8081');
    expect(config.get('WEBHOOKS_INTERNAL_URL')).to.equal('http://webhooks-gateway:8082');
    expect(config.get('OPERATORS_USERINFO_URL')).to.equal(
      'http://oauth:8080/community/operators/v1/userinfo',
    );
    const secret = generated(DEV, 'secretGenerator');
    for (const name of ['CONSOLE_CLIENT_ID', 'CONSOLE_CLIENT_SECRET', 'MASTER_KEY']) {
      expect(secret.has(name), name).to.equal(true);
      expect(config.has(name) || devConfig.has(name), name).to.equal(false);
    }
  });

  it('each queue worker (connector types, capture checker) has its Deployment and a KEDA ScaledObject on its queue from the definitions file', () => {
    const definitions = JSON.parse(readFileSync('infra/rabbitmq/definitions.json', 'utf8')) as {
      queues: { name: string }[];
    };
    const queues = new Set(definitions.queues.map((q) => q.name));
    const deployments = new Map(ofKind('Deployment').map((d) => [d.metadata.name, d]));
    const scalers = ofKind('ScaledObject');
    expect(scalers).to.have.length(CONNECTOR_TYPES.length + 1);
    const checker = scalers.find((s) => s.metadata.name === 'capture-checker');
    const checkerQueue = (checker?.spec as { triggers: { metadata: { queueName: string } }[] })
      .triggers[0]?.metadata.queueName;
    expect(checkerQueue).to.equal('capture.checks');
    expect(queues.has('capture.checks')).to.equal(true);
    const checkerContainer = (deployments.get('capture-checker')?.spec as DeploymentSpec).template
      .spec.containers[0];
    expect(checkerContainer?.command).to.include('services/capture-checker/src/main.ts');
    for (const type of CONNECTOR_TYPES) {
      const scaler = scalers.find((s) =>
        (s.spec as { triggers: { metadata: { queueName: string } }[] }).triggers.some(
          (t) => t.metadata.queueName === `idv.connector.${type}`,
        ),
      );
      expect(scaler, type).to.not.equal(undefined);
      expect(queues.has(`idv.connector.${type}`), type).to.equal(true);
      const target = (scaler!.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name;
      const container = (deployments.get(target)?.spec as DeploymentSpec).template.spec
        .containers[0];
      expect(container?.env, type).to.deep.include({ name: 'CONNECTOR_TYPE', value: type });
    }
  });
});
