// The audit log's admin command: `audit verify` walks the hash chain of platform.audit_log.
import { verifyAuditChain, type AuditChainVerdict } from '@idv/platform';
import type { commands } from './commands.ts';

type Command = (typeof commands)[string];

/** A broken chain: main.ts prints the verdict on stdout all the same, then exits 1. */
export class AuditChainBroken extends Error {
  override name = 'AuditChainBroken';
  constructor(readonly verdict: AuditChainVerdict) {
    const bad = verdict.firstBadEntry;
    super(
      bad
        ? `the audit log's hash chain breaks at seq ${bad.seq} (id ${bad.id ?? 'none'}): ${bad.reason}`
        : "the audit log's hash chain is broken",
    );
  }
}

export const auditCommands: Record<string, Command> = {
  'audit verify': async ({ db }) => {
    const verdict = await verifyAuditChain(db);
    if (!verdict.ok) throw new AuditChainBroken(verdict);
    return verdict;
  },
};
