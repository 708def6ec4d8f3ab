// The mutual-TLS agents of a worker, one per client certificate and passphrase, kept for the
// worker's life: a call reuses the agent's sockets and TLS sessions, and the PKCS#12 (whose key
// derivation is slow on purpose) is opened once, not on every call.
import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { createSecureContext } from 'node:tls';
import { Refused } from '../outcomes.ts';

/** Agents kept; past it the least recently used is retired. */
const MAX_AGENTS = 64;
/** A retired agent is destroyed this long after, so the calls still using it can end. */
const RETIRE_AFTER_MS = 60_000;

export class MtlsAgents {
  private readonly agents = new Map<string, Agent>();
  private readonly retiring = new Set<NodeJS.Timeout>();

  constructor(private readonly lookup?: LookupFunction) {}

  /** The agent of this certificate (bytes) and passphrase; a refusal if they do not open. */
  of(pfx: Buffer, passphrase: string, name: string): Agent {
    const key = createHash('sha256').update(pfx).update('\0').update(passphrase).digest('hex');
    const found = this.agents.get(key);
    if (found) {
      this.agents.delete(key); // re-inserted: Map order is the recency order
      this.agents.set(key, found);
      return found;
    }
    let secureContext;
    try {
      secureContext = createSecureContext({ pfx, passphrase });
    } catch {
      throw new Refused('invalid_config', `certPath: ${name} does not open with the passphrase`);
    }
    const agent = new Agent({
      keepAlive: true,
      secureContext,
      ...(this.lookup ? { lookup: this.lookup } : {}),
    });
    this.agents.set(key, agent);
    if (this.agents.size > MAX_AGENTS) this.retireOldest();
    return agent;
  }

  close(): void {
    for (const timer of this.retiring) clearTimeout(timer);
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private retireOldest(): void {
    const [key, agent] = this.agents.entries().next().value as [string, Agent];
    this.agents.delete(key);
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      agent.destroy();
    }, RETIRE_AFTER_MS);
    timer.unref();
    this.retiring.add(timer);
  }
}
