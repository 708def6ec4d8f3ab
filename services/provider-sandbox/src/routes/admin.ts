// Admin endpoints of the sandbox: set or clear a scope's fault, read how often a scope was called.
import type { Fault, FaultBoard } from '../faults.ts';
import type { Route } from '../router.ts';
import { recordOf } from './refuse.ts';

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

export function adminRoutes(board: FaultBoard): Route[] {
  return [
    { method: 'GET', path: '/healthz', handle: () => ({ status: 200, body: { status: 'ok' } }) },
    {
      method: 'PUT',
      path: '/_admin/faults/:scope',
      handle: ({ params, body: given }) => {
        const body = recordOf(given);
        const fault: Fault = {};
        const latencyMs = number(body.latencyMs);
        const status = number(body.status);
        const times = number(body.times);
        if (latencyMs !== undefined) fault.latencyMs = latencyMs;
        if (status !== undefined) fault.status = status;
        if (times !== undefined) fault.times = times;
        if (body.hang === true) fault.hang = true;
        if (body.malformed === true) fault.malformed = true;
        board.set(params.scope ?? '', fault);
        return { status: 200, body: { scope: params.scope, fault } };
      },
    },
    {
      method: 'DELETE',
      path: '/_admin/faults',
      handle: () => {
        board.clear();
        return { status: 204 };
      },
    },
    {
      method: 'DELETE',
      path: '/_admin/faults/:scope',
      handle: ({ params }) => {
        board.clear(params.scope ?? '');
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/_admin/calls/:scope',
      handle: ({ params }) => {
        const scope = params.scope ?? '';
        return {
          status: 200,
          body: { scope, calls: board.callsOf(scope), peakInFlight: board.peakOf(scope) },
        };
      },
    },
  ];
}
