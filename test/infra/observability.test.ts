// infra/observability: every alert and dashboard expression parses as PromQL (Prometheus's own
// lezer grammar), and every metric name they use is exported by a live service's /metrics,
// comes from RabbitMQ or Prometheus, or is listed here as pending with the change it waits for.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parser } from '@prometheus-io/lezer-promql';
import { expect } from 'chai';
import { parse } from 'yaml';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { platformMigrations } from '@idv/platform';
import { startConnectorWorker } from '../../services/connector-worker/src/start.ts';
import { startWebhookDispatcher } from '../../services/webhook-dispatcher/src/start.ts';
import { webhooksMigrations } from '../../services/webhooks-gateway/src/migrations.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { startPlatform } from '@idv/testing/platform';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const alerts = parse(readFileSync('infra/observability/alerts.yml', 'utf8')) as {
  groups: { name: string; rules: Rule[] }[];
};
const rules = alerts.groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(
  readFileSync('infra/observability/grafana-dashboard.json', 'utf8'),
) as { panels: { title: string; targets: { expr: string }[] }[] };
/** Grafana's variables, replaced by what Prometheus would get */
const expand = (expr: string) => expr.replaceAll('$__rate_interval', '5m');

const expressions = [
  ...rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })),
  ...dashboard.panels.flatMap((p) =>
    p.targets.map((t) => ({ where: `panel "${p.title}"`, expr: expand(t.expr) })),
  ),
];

/** Syntax errors and the metric names of a PromQL expression. */
function analyse(expr: string): { errors: number[]; metrics: string[] } {
  const errors: number[] = [];
  const metrics: string[] = [];
  parser.parse(expr).iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(node.from);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        metrics.push(expr.slice(node.from, node.to));
      }
    },
  });
  return { errors, metrics };
}

/** Scraped from RabbitMQ (rabbitmq_prometheus, per-object metrics on) or made by Prometheus. */
const EXTERNAL = new Set(['rabbitmq_queue_messages_ready', 'up']);
/** Used by the rules before a service exports them; each names the change it waits for. */
const PENDING: Record<string, string> = {};

/** Every sample name a /metrics text can hold: histograms expand to _bucket, _sum, _count. */
function namesOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = m as unknown as [string, string, string];
    names.add(name);
    if (type === 'histogram' || type === 'summary') {
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    }
  }
  return names;
}

describe('alert rules and Grafana dashboard', () => {
  it('every rule has a name, an expression, a severity and a summary', () => {
    expect(rules.length).to.be.at.least(5);
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).to.match(/^[A-Z][A-Za-z0-9]+$/);
      expect(rule.labels?.severity, rule.alert).to.be.oneOf(['page', 'ticket']);
      expect(rule.annotations?.summary, rule.alert).to.be.a('string');
      if (rule.for) expect(rule.for, rule.alert).to.match(/^\d+[smh]$/);
    }
  });

  it('covers what operations asked for', () => {
    const names = rules.map((r) => r.alert);
    for (const wanted of [
      'ConnectorBreakerOpen',
      'DeadLetterQueueGrowing',
      'WebhookCallbackFailureRate',
      'VerifyLatencyP99AboveTarget',
      'LicenceFailuresSpike',
    ]) {
      expect(names).to.include(wanted);
    }
  });

  it('every expression is valid PromQL', () => {
    const bad = expressions
      .map(({ where, expr }) => ({ where, errors: analyse(expr).errors }))
      .filter((e) => e.errors.length > 0);
    expect(bad).to.deep.equal([]);
  });

  it('a broken expression is caught (the linter is not a no-op)', () => {
    expect(analyse('sum(rate(x[5m]) by').errors).to.not.deep.equal([]);
  });

  describe('metric names against live /metrics', function () {
    this.timeout(60_000);
    const exported = new Set<string>();
    let database: TestDatabase | undefined;
    const stops: (() => Promise<void>)[] = [];

    before(async () => {
      const platform = await startPlatform();
      stops.push(() => platform.stop());
      for (const service of Object.values(platform.services)) {
        const res = await fetch(`${service.url}/metrics`);
        for (const name of namesOf(await res.text())) exported.add(name);
      }
      const worker = await startConnectorWorker({
        ...platform.env,
        CONNECTOR_TYPE: 'face_cloud',
        CONNECTOR_QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}.idv.connector`,
        WORKER_METRICS_PORT: '0',
      });
      // stops run in reverse: the queue goes after the worker has stopped
      stops.push(() => deleteQueues(platform.env.AMQP_URL ?? '', [worker.queue]));
      stops.push(() => worker.stop());
      for (const name of namesOf(await worker.registry.metrics())) exported.add(name);
      database = await createTestDatabase([platformMigrations, webhooksMigrations]);
      const eventsQueue = `test-${randomBytes(4).toString('hex')}.webhooks`;
      const dispatcher = await startWebhookDispatcher({
        ...platform.env,
        DATABASE_URL: database.url,
        WEBHOOK_DISPATCHER_PORT: '0',
        WEBHOOK_EVENTS_QUEUE: eventsQueue,
      });
      stops.push(() => deleteQueues(platform.env.AMQP_URL ?? '', [eventsQueue]));
      stops.push(() => dispatcher.stop());
      const res = await fetch(`${dispatcher.server.url}/metrics`);
      for (const name of namesOf(await res.text())) exported.add(name);
    });

    after(async () => {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
      await database?.drop();
    });

    it('every metric a rule or panel uses is exported by a service (or external)', () => {
      const missing = expressions.flatMap(({ where, expr }) =>
        analyse(expr)
          .metrics.filter((m) => !exported.has(m) && !EXTERNAL.has(m) && !(m in PENDING))
          .map((m) => `${where}: ${m}`),
      );
      expect(missing).to.deep.equal([]);
    });

    for (const [name, change] of Object.entries(PENDING)) {
      // pending until the service exports it; then this list entry must go
      it(`${name} is still pending (${change})`, function () {
        if (!exported.has(name)) this.skip();
        expect.fail(`${name} is exported now: remove it from PENDING`);
      });
    }
  });
});
