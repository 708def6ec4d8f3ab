// Admin endpoints of the sandbox: set or clear a scope's fault, read how often a scope was called.
import { Router } from 'express';
import type { Fault, FaultBoard } from '../faults.ts';

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

export function adminRoutes(board: FaultBoard): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.put('/_admin/faults/:scope', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const fault: Fault = {};
    const latencyMs = number(body.latencyMs);
    const status = number(body.status);
    const times = number(body.times);
    if (latencyMs !== undefined) fault.latencyMs = latencyMs;
    if (status !== undefined) fault.status = status;
    if (times !== undefined) fault.times = times;
    if (body.hang === true) fault.hang = true;
    if (body.malformed === true) fault.malformed = true;
    board.set(req.params.scope, fault);
    res.json({ scope: req.params.scope, fault });
  });
  router.delete('/_admin/faults', (_req, res) => {
    board.clear();
    res.status(204).end();
  });
  router.delete('/_admin/faults/:scope', (req, res) => {
    board.clear(req.params.scope);
    res.status(204).end();
  });
  router.get('/_admin/calls/:scope', (req, res) => {
    const { scope } = req.params;
    res.json({ scope, calls: board.callsOf(scope), peakInFlight: board.peakOf(scope) });
  });
  return router;
}
