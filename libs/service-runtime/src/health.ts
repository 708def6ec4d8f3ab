// GET /healthz and GET /metrics of a process without an API (a connector worker): the checks of
// its runtime, its version, and its Prometheus registry. Services answer the richer common /healthz.
import type { Route } from '@idv/http';
import type { ProcessRuntime } from './runtime.ts';

export type HealthCheck = () => Promise<boolean>;

/** Runs every check (a throwing one is down) and says which are up. */
export async function runChecks(
  checks: Record<string, HealthCheck>,
): Promise<{ allUp: boolean; checks: Record<string, 'up' | 'down'> }> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => checks[name]!().catch(() => false)));
  return {
    allUp: results.every(Boolean),
    checks: Object.fromEntries(names.map((name, i) => [name, results[i] ? 'up' : 'down'])),
  };
}

/** ?ready=1 (or true) asks as a readiness probe: a degraded process answers 503. */
export const isReadinessProbe = (query: Record<string, unknown>): boolean =>
  query.ready === '1' || query.ready === 'true';

/** /healthz and /metrics of any process that has checks, a version and a registry. */
export function healthRoutes(
  runtime: Pick<ProcessRuntime, 'checks' | 'version' | 'registry'>,
): Route[] {
  return [
    {
      method: 'GET',
      path: '/healthz',
      doc: { summary: 'dependency status and build version; with ?ready=1 degraded is 503' },
      handler: async (req, res) => {
        const { allUp, checks } = await runChecks(runtime.checks);
        const readiness = isReadinessProbe(req.query as Record<string, unknown>);
        res.set('Cache-Control', 'no-store');
        res.status(readiness && !allUp ? 503 : 200).json({
          status: allUp ? 'ok' : 'degraded',
          version: runtime.version,
          checks,
        });
      },
    },
    {
      method: 'GET',
      path: '/metrics',
      doc: { summary: 'Prometheus metrics' },
      handler: async (_req, res) => {
        res.type(runtime.registry.contentType).send(await runtime.registry.metrics());
      },
    },
  ];
}
