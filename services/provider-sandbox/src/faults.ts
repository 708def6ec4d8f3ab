// Fault injection: by the request (a `/fault/<spec>` path prefix in the connectorUrl) or by the
// admin endpoint per scope (a `/s/<scope>` prefix), so a test can fail one verifier and not another.
// Spec: comma-separated `latency=<ms>`, `status=<code>`, `hang`, `malformed`.
import { decodedSegment } from './requestError.ts';
import type { Answer } from './router.ts';

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

/** A request target with its fault prefixes stripped: the scope and the faults its path asks for. */
export interface FaultedTarget {
  url: string;
  scope: string;
  fault: Fault;
}

const undecodable = (segment: string) => `fault prefix does not decode: ${segment}`;

export function stripFaultPrefixes(url: string): FaultedTarget {
  let scope = 'default';
  let fault: Fault = {};
  // the prefixes are path segments: a query string is not part of the last one
  const queryAt = url.indexOf('?');
  let path = queryAt < 0 ? url : url.slice(0, queryAt);
  for (let match = PREFIX.exec(path); match; match = PREFIX.exec(path)) {
    const segment = decodedSegment(match[2] ?? '', undecodable);
    if (match[1] === 's') scope = segment;
    else fault = { ...fault, ...parseFaultSpec(segment) };
    path = match[3] ?? '/';
  }
  return { url: queryAt < 0 ? path : path + url.slice(queryAt), scope, fault };
}

/** The admin endpoints and the health check answer whatever the faults say. */
export const isFaultFree = (url: string): boolean =>
  url.startsWith('/_admin') || url === '/healthz';

/**
 * Counts the call and delays it, then answers for its route when a fault fails or garbles it:
 * 'hang' when it is never to be answered, undefined when the route answers.
 */
export async function faultAnswer(
  board: FaultBoard,
  target: FaultedTarget,
): Promise<Answer | 'hang' | undefined> {
  const fault = { ...board.take(target.scope), ...target.fault };
  if (fault.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
  if (fault.hang) return 'hang';
  if (fault.status)
    return { status: fault.status, body: { error: 'injected fault', status: fault.status } };
  // sent as JSON, which it is not
  if (fault.malformed) return { status: 200, body: '{"this is": not json' };
  return undefined;
}
