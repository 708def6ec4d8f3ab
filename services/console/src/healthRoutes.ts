// GET /healthz (the database up, the build version; ?ready=1: 503 when degraded) and GET /metrics.
import type { Route } from '@idv/http';
import { runChecks } from '@idv/service-runtime';
import type { ConsoleRuntime } from './consoleRuntime.ts';

export function healthRoutes(runtime: ConsoleRuntime): Route[] {
  return [
    {
      method: 'GET',
      path: '/healthz',
      doc: { summary: 'dependency status and build version; with ?ready=1 degraded is 503' },
      handler: async (req, res) => {
        const { allUp, checks } = await runChecks(runtime.checks);
        const ready = req.query.ready === '1' || req.query.ready === 'true';
        res.set('Cache-Control', 'no-store');
        res.status(ready && !allUp ? 503 : 200).json({ status: allUp ? 'ok' : 'degraded', version: runtime.version, checks }); // prettier-ignore
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
