// docker-compose.yml checked offline: interpolated as `docker compose config` does, validated
// against the Compose Specification schema dclint ships, and held to the services' own settings.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { PlatformConfig } from '@idv/config';
import { CONNECTOR_TYPES, CONNECTORS } from '@idv/contracts';
import { CaptureCheckerConfig } from '../../services/capture-checker/src/config.ts';
import { ConnectorWorkerConfig } from '../../services/connector-worker/src/config.ts';
import { ConsoleConfig } from '../../services/console/src/config.ts';
import { DocverifyGatewayConfig } from '../../services/docverify-gateway/src/config.ts';
import { OauthConfig } from '../../services/oauth/src/config.ts';
import { WebhookDispatcherConfig } from '../../services/webhook-dispatcher/src/config.ts';
import { WebhooksGatewayConfig } from '../../services/webhooks-gateway/src/config.ts';
import { devCommand, devProcesses } from '../../infra/dev/processes.ts';

type Service = {
  command?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }>;
  cpu_shares?: number;
  healthcheck?: { test: string[] };
  volumes?: string[];
  ports?: string[];
  networks?: Record<string, { aliases?: string[] } | null>;
};
type Compose = { services: Record<string, Service>; volumes: Record<string, unknown> };

const raw = readFileSync('docker-compose.yml', 'utf8');
const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

/** Compose interpolation: ${X}, ${X:-default}, ${X-default}, ${X:?error}, ${X?error}, $$. */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (all, name, op, arg) => {
      if (all === '$$') return '$';
      const value = env[name as string];
      const unset = value === undefined || (op?.startsWith(':') && value === '');
      if (!unset) return value;
      if (op?.endsWith('?')) throw new Error(`required variable ${name}: ${arg}`);
      return op ? (arg as string) : '';
    },
  );
}

function load(env: Record<string, string | undefined>): Compose {
  return parse(interpolate(raw, env), { merge: true, maxAliasCount: -1 }) as Compose;
}

/** Every ${VAR:-default} the file offers, by variable. */
function offeredDefaults(): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of raw.matchAll(/\$\{([A-Z0-9_]+):-([^}]*)\}/g)) found.set(m[1]!, m[2]!);
  return found;
}

const settingsOf = (...configs: { properties: Record<string, { default?: unknown }> }[]) =>
  Object.assign({}, ...configs.map((c) => c.properties)) as Record<string, { default?: unknown }>;
const httpSettings = {
  oauth: settingsOf(PlatformConfig, OauthConfig),
  'docverify-gateway': settingsOf(PlatformConfig, DocverifyGatewayConfig),
  'webhooks-gateway': settingsOf(PlatformConfig, WebhooksGatewayConfig),
  'webhook-dispatcher': settingsOf(PlatformConfig, WebhookDispatcherConfig),
  console: settingsOf(PlatformConfig, ConsoleConfig),
};
/** set in the image or meaningless in containers: BUILD_VERSION stamped at build, no dev key file */
const NOT_IN_COMPOSE = new Set(['BUILD_VERSION', 'MASTER_KEY_FILE', 'WORKER_PREFETCH']);
/** defaults that differ on purpose: containers reach each other by service name, keys on a volume */
const CONTAINER_DEFAULTS = new Set([
  'DATABASE_URL',
  'AMQP_URL',
  'NODE_ENV',
  'MASTER_KEYS_DIR',
  'OPERATORS_USERINFO_URL',
  'CONSOLE_OIDC_ISSUER',
  'DOCVERIFY_INTERNAL_URL',
  'WEBHOOKS_INTERNAL_URL',
]);

describe('docker-compose.yml', () => {
  const compose = load({ MASTER_KEY });

  it('is a valid Compose file (Compose Specification schema, offline)', () => {
    // the schema and the ajv 8 that dclint validates Compose files with, both shipped in the package
    const dclint = createRequire(import.meta.url).resolve('dclint');
    const schema = JSON.parse(
      readFileSync(join(dirname(dclint), '../schemas/compose.schema.json'), 'utf8'),
    ) as Record<string, unknown>;
    delete schema.$schema; // its https draft-07 URL is the same meta-schema ajv knows by http
    const { Ajv } = createRequire(dclint)('ajv') as {
      Ajv: new (options: object) => {
        validate(schema: object, data: unknown): boolean;
        errors?: unknown[] | null;
      };
    };
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    const valid = ajv.validate(schema, compose);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors, null, 1)).to.deep.equal([]);
    expect(valid).to.equal(true);
  });

  it('refuses to start without MASTER_KEY, as `docker compose config` would', () => {
    expect(() => load({})).to.throw(/MASTER_KEY/);
  });

  it('runs PostgreSQL and RabbitMQ (management, the definitions file) with health checks and volumes', () => {
    const { postgres, rabbitmq } = compose.services;
    expect(postgres?.healthcheck?.test.join(' ')).to.contain('pg_isready');
    expect(postgres?.volumes).to.deep.equal(['pgdata:/var/lib/postgresql/data']);
    expect(rabbitmq?.healthcheck).to.not.equal(undefined);
    expect((rabbitmq as { image: string }).image).to.match(/management/);
    expect(rabbitmq?.volumes).to.include.members([
      'rabbitdata:/var/lib/rabbitmq',
      './infra/rabbitmq/definitions.json:/etc/rabbitmq/definitions.json:ro',
    ]);
    expect(Object.keys(compose.volumes)).to.have.members([
      'pgdata',
      'rabbitdata',
      'masterkeys',
      'softhsm',
    ]);
  });

  it('gives each connector type a service of its own, so `--scale <type>=N` scales that type alone', () => {
    for (const type of CONNECTOR_TYPES) {
      const service = compose.services[type];
      expect(service, type).to.not.equal(undefined);
      expect(service?.environment?.CONNECTOR_TYPE).to.equal(type);
      expect(service?.command).to.deep.equal([
        'node',
        '--import',
        'tsx',
        'services/connector-worker/src/main.ts',
      ]);
      // a published host port or a container_name would make a second replica fail to start
      expect(service?.ports ?? [], type).to.deep.equal([]);
      expect(service).to.not.have.property('container_name');
    }
  });

  it('gives the capture checker a service of its own, scaled alone like a connector type', () => {
    const service = compose.services.capture_checker;
    expect(service?.command).to.deep.equal([
      'node',
      '--import',
      'tsx',
      'services/capture-checker/src/main.ts',
    ]);
    expect(service?.ports ?? []).to.deep.equal([]);
    expect(service?.environment?.CAPTURE_CHECK_QUEUE).to.equal(
      compose.services['docverify-gateway']?.environment?.CAPTURE_CHECK_QUEUE,
    );
  });

  it('gives the CPU-bound workers a lower CPU weight than the request path, in compose and make run', () => {
    // the connector types whose work is in the worker (deployment compute 'cpu'), and the checker
    const cpuTypes = CONNECTORS.filter((c) => c.deployment.compute === 'cpu').map((c) => c.type);
    expect(cpuTypes).to.include.members(['basic_ocr', 'basic_face']);
    const cpuBoundNames = [...cpuTypes, 'capture_checker'];
    for (const [name, service] of Object.entries(compose.services))
      expect(service.cpu_shares, name).to.equal(cpuBoundNames.includes(name) ? 256 : undefined);
    const niced = devProcesses({}).filter((p) => p.nice);
    const nicedNames = [
      ...cpuTypes.map((t) => `connector-${t.replaceAll('_', '-')}`),
      'capture-checker',
    ];
    expect(niced.map((p) => [p.name, p.nice])).to.deep.equal(nicedNames.map((n) => [n, 10]));
    expect(devCommand(niced[0]!)).to.deep.equal([
      'nice',
      ['-n', '10', process.execPath, '--import', 'tsx', niced[0]!.entry],
    ]);
  });

  it('runs the migrations once, before every service that uses the database', () => {
    expect(compose.services.migrate?.command?.join(' ')).to.contain('admin-cli/src/migrate.ts');
    for (const name of Object.keys(httpSettings)) {
      expect(compose.services[name]?.depends_on?.migrate, name).to.deep.equal({
        condition: 'service_completed_successfully',
      });
    }
  });

  it('passes every setting of each service through the environment, nothing unknown', () => {
    const services: Record<string, Record<string, { default?: unknown }>> = {
      ...httpSettings,
      ...Object.fromEntries(
        CONNECTOR_TYPES.map((t) => [t, settingsOf(ConnectorWorkerConfig)] as const),
      ),
      capture_checker: settingsOf(CaptureCheckerConfig),
    };
    for (const [name, settings] of Object.entries(services)) {
      const given = Object.keys(compose.services[name]?.environment ?? {});
      const expected = Object.keys(settings).filter((key) => !NOT_IN_COMPOSE.has(key));
      expect(given, name).to.have.members(expected);
    }
  });

  it('offers the platform defaults (DESIGN 2.3 ports, docs/configuration.md) unless overridden', () => {
    const all = settingsOf(
      PlatformConfig,
      OauthConfig,
      DocverifyGatewayConfig,
      WebhooksGatewayConfig,
      WebhookDispatcherConfig,
      ConsoleConfig,
      ConnectorWorkerConfig,
      CaptureCheckerConfig,
    );
    const offered = offeredDefaults();
    expect(offered.get('OAUTH_PORT')).to.equal('8080');
    expect(offered.get('DOCVERIFY_PORT')).to.equal('8081');
    expect(offered.get('WEBHOOKS_PORT')).to.equal('8082');
    expect(offered.get('CONSOLE_PORT')).to.equal('8084');
    expect(offered.get('SANDBOX_PORT')).to.equal('8090');
    for (const [name, value] of offered) {
      const setting = all[name];
      if (!setting || CONTAINER_DEFAULTS.has(name) || setting.default === undefined) continue;
      expect(value, name).to.equal(String(setting.default));
    }
  });

  it('gives the console its issuer at one address the browser and its container both reach, the gateways by service name, its client from the environment', () => {
    const env = compose.services.console?.environment ?? {};
    // the oauth service derives its issuer from the Host it is called at: one name for both sides
    const issuer = new URL(String(env.CONSOLE_OIDC_ISSUER));
    expect(issuer.pathname).to.equal('/community/operators');
    expect(issuer.hostname, 'browsers send *.localhost to this machine').to.match(/\.localhost$/);
    expect(compose.services.oauth?.networks?.default?.aliases).to.include(issuer.hostname);
    expect(compose.services.oauth?.ports).to.deep.equal([`${issuer.port}:${issuer.port}`]);
    expect(compose.services.console?.ports).to.deep.equal(['8084:8084']);
    expect(env.CONSOLE_PUBLIC_URL).to.equal('http://localhost:8084');
    for (const [setting, service] of [
      ['DOCVERIFY_INTERNAL_URL', 'docverify-gateway'],
      ['WEBHOOKS_INTERNAL_URL', 'webhooks-gateway'],
    ] as const) {
      const url = new URL(String(env[setting]));
      expect(url.hostname, setting).to.equal(service);
      expect(compose.services[service]?.ports, setting).to.deep.equal([`${url.port}:${url.port}`]);
    }
    // unset: empty (this text-level interpolation leaves a YAML null where Compose has '')
    expect([env.CONSOLE_CLIENT_ID ?? '', env.CONSOLE_CLIENT_SECRET ?? '']).to.deep.equal(['', '']);
    const given = load({
      MASTER_KEY,
      CONSOLE_CLIENT_ID: 'cl_fake',
      CONSOLE_CLIENT_SECRET: 'fake-secret',
    });
    expect(given.services.console?.environment).to.include({
      CONSOLE_CLIENT_ID: 'cl_fake',
      CONSOLE_CLIENT_SECRET: 'fake-secret',
    });
  });

  it('starts every HTTP service with a health check on its /healthz', () => {
    const workers = [...CONNECTOR_TYPES, 'capture_checker'];
    for (const name of [...Object.keys(httpSettings), 'provider-sandbox', ...workers]) {
      expect(compose.services[name]?.healthcheck?.test.join(' '), name).to.contain('/healthz');
    }
  });
});
