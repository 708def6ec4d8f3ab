// Fault injection: by the request (a `/fault/<spec>` path prefix in the connectorUrl) or by the
// admin endpoint per scope (a `/s/<scope>` prefix), so a test can fail one verifier and not another.
// Spec: comma-separated `latency=<ms>`, `status=<code>`, `hang`, `malformed`.
import type { NextFunction, Request, Response } from 'express';

export interface Fault {
  latencyMs?: number;
  status?: number;
  hang?: boolean;
  malformed?: boolean;
  /** how many calls the fault still applies to; unlimited when absent */
  times?: number;
}

export function parseFaultSpec(spec: string): Fault {
  const fault: Fault = {};
  for (const part of spec.split(',')) {
    const [name, value] = part.split('=');
    if (name === 'latency') fault.latencyMs = Number(value);
    else if (name === 'status') fault.status = Number(value);
    else if (name === 'hang') fault.hang = true;
    else if (name === 'malformed') fault.malformed = true;
  }
  return fault;
}

export class FaultBoard {
  private readonly faults = new Map<string, Fault>();
  private readonly calls = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly peaks = new Map<string, number>();

  set(scope: string, fault: Fault): void {
    this.faults.set(scope, fault);
  }

  clear(scope?: string): void {
    if (scope === undefined) this.faults.clear();
    else this.faults.delete(scope);
  }

  callsOf(scope: string): number {
    return this.calls.get(scope) ?? 0;
  }

  /** The most calls of `scope` the sandbox held at once (a provider's view of concurrency). */
  peakOf(scope: string): number {
    return this.peaks.get(scope) ?? 0;
  }

  /** A call of `scope` arrives; the returned function marks it answered. */
  enter(scope: string): () => void {
    const now = (this.inFlight.get(scope) ?? 0) + 1;
    this.inFlight.set(scope, now);
    this.peaks.set(scope, Math.max(now, this.peakOf(scope)));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight.set(scope, (this.inFlight.get(scope) ?? 1) - 1);
    };
  }

  /** Counts the call and returns the admin fault that applies to it, using up one of its `times`. */
  take(scope: string): Fault {
    this.calls.set(scope, this.callsOf(scope) + 1);
    const fault = this.faults.get(scope);
    if (!fault) return {};
    if (fault.times !== undefined) {
      if (fault.times <= 0) return {};
      fault.times -= 1;
    }
    return fault;
  }
}

const PREFIX = /^\/(s|fault)\/([^/]+)(\/.*)?$/;

/** Strips the prefixes, then delays, fails, hangs or garbles as the faults say. */
export function faultInjection(board: FaultBoard) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    let scope = 'default';
    let fault: Fault = {};
    for (let match = PREFIX.exec(req.url); match; match = PREFIX.exec(req.url)) {
      if (match[1] === 's') scope = decodeURIComponent(match[2] ?? '');
      else fault = { ...fault, ...parseFaultSpec(decodeURIComponent(match[2] ?? '')) };
      req.url = match[3] ?? '/';
    }
    if (req.url.startsWith('/_admin') || req.url === '/healthz') return next();
    res.locals.scope = scope;
    const leave = board.enter(scope);
    res.once('close', leave);
    fault = { ...board.take(scope), ...fault };
    if (fault.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
    if (fault.hang) return; // the socket stays open until the caller gives up
    if (fault.status) {
      res.status(fault.status).json({ error: 'injected fault', status: fault.status });
      return;
    }
    if (fault.malformed) {
      res.status(200).type('application/json').send('{"this is": not json');
      return;
    }
    next();
  };
}
