// The mutual-TLS dispatchers of a worker, one per account and client certificate (its bytes and
// passphrase), kept for the worker's life: a call reuses the dispatcher's sockets and TLS sessions,
// and the PKCS#12 (whose key derivation is slow on purpose) is opened once, not on every call. No
// dispatcher, nor the TLS sessions it holds, serves another verifier's account.
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Dispatcher } from 'undici';
import { Refused } from '../outcomes.ts';
import { within, type AccountKey } from './accounts.ts';
import { RecentlyUsed } from './recentlyUsed.ts';

/** Dispatchers kept; past it the least recently used is retired. */
const MAX_AGENTS = 64;
/** A retired dispatcher is destroyed this long after, so the calls still using it can end. */
const RETIRE_AFTER_MS = 60_000;

export class MtlsAgents {
  private readonly agents = new RecentlyUsed<Dispatcher>(MAX_AGENTS, (agent) => this.retire(agent));
  /** retired dispatchers by the timer that destroys them */
  private readonly retiring = new Map<NodeJS.Timeout, Dispatcher>();

  /** `open` makes a dispatcher with the certificate's context (GuardedHttp.dispatcherWith). */
  constructor(private readonly open: (tls: { secureContext: SecureContext }) => Dispatcher) {}

  /**
   * The dispatcher of the job's account (AdapterInput.account) with this certificate (bytes) and
   * passphrase; a refusal if they do not open.
   */
  of(account: AccountKey, pfx: Buffer, passphrase: string, name: string): Dispatcher {
    const key = within(account, pfx, passphrase);
    const found = this.agents.get(key);
    if (found) return found;
    let secureContext;
    try {
      secureContext = createSecureContext({ pfx, passphrase });
    } catch {
      throw new Refused('invalid_config', `certPath: ${name} does not open with the passphrase`);
    }
    const agent = this.open({ secureContext });
    this.agents.set(key, agent);
    return agent;
  }

  async close(): Promise<void> {
    for (const timer of this.retiring.keys()) clearTimeout(timer);
    const open = [...this.agents.clear(), ...this.retiring.values()];
    this.retiring.clear();
    await Promise.all(open.map((agent) => agent.destroy()));
  }

  /** The least recently used, past MAX_AGENTS: destroyed once the calls still using it can end. */
  private retire(agent: Dispatcher): void {
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      void agent.destroy();
    }, RETIRE_AFTER_MS);
    timer.unref();
    this.retiring.set(timer, agent);
  }
}
