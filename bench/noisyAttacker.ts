// Tenant B's attacks in a process of their own, as a real attacker's client is on another machine:
// in the bench's process B's thousands of answers would delay A's timers and so A's measured
// latencies. For the same reason the process runs at the lowest CPU priority (nice 19): on this
// machine's two cores B's client (its encryption of every request, 10 to 13 CPU s a round) would
// otherwise take the platform's CPU, which an attacker's client elsewhere does not; B's requests
// still reach the platform as fast as its loops send them (the platform's CPU is idle for it when
// the platform is). The bench forks this file, sends what B's clients need and when to stop, and
// gets B's answers back by class.
import { spawn } from 'node:child_process';
import { IdvClient } from '@idv/client';
import type { Community } from '@idv/platform';
import { Answers, attacker, type Attack } from './noisyLoad.ts';
import type { Tenant } from './noisyTenants.ts';
import { cpuMs } from './processes.ts';

interface Orders {
  community: Community;
  licence: string;
  floodLicence: string;
  urls: Record<string, string>;
  until: number;
  attacks: readonly Attack[];
}

interface Report {
  counts: Record<string, number>;
  examples: Record<string, string>;
}

/** B's clients rebuilt from its licences. */
function tenantOf(orders: Orders): { b: Tenant; bFlood: IdvClient } {
  const client = (url: string, licenseKey: string) => new IdvClient({ baseUrl: url, licenseKey });
  const docverifyUrl = orders.urls['docverify-gateway']!;
  return {
    b: {
      community: orders.community,
      licence: orders.licence,
      docverify: client(docverifyUrl, orders.licence),
      webhooks: client(orders.urls['webhooks-gateway']!, orders.licence),
    },
    bFlood: client(docverifyUrl, orders.floodLicence),
  };
}

/**
 * B's attacks until `until`, run in a child process, its answers added to `answers`; `cpu` reads
 * the child's CPU ms while it runs (undefined before it starts and after it ends).
 */
export function attackFromChild(
  orders: Omit<Orders, 'until' | 'attacks'>,
  until: number,
  attacks: readonly Attack[],
  answers: Answers,
): { done: Promise<void>; cpuMs: () => number | undefined } {
  // under nice from its start: every thread of the process at 19 (a later setPriority would
  // reach its main thread only)
  const script = new URL(import.meta.url).pathname;
  const child = spawn('nice', ['-n', '19', process.execPath, '--import', 'tsx', script], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  child.send({ ...orders, until, attacks } satisfies Orders);
  const done = new Promise<void>((resolve, reject) => {
    child.once('message', (report: Report) => {
      for (const [key, n] of Object.entries(report.counts))
        answers.counts[key] = (answers.counts[key] ?? 0) + n;
      for (const [key, example] of Object.entries(report.examples))
        answers.examples[key] ??= example;
      child.disconnect();
      resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`B's attacker exited with ${code} before its report`)),
    );
  });
  return { done, cpuMs: () => cpuMs(child.pid) };
}

if (process.send) {
  process.once('message', (orders: Orders) => {
    const answers = new Answers();
    const docverifyUrl = orders.urls['docverify-gateway']!;
    void attacker(tenantOf(orders), docverifyUrl, orders.until, answers, orders.attacks).then(
      () =>
        process.send!({ counts: answers.counts, examples: answers.examples } satisfies Report, () =>
          process.exit(0),
        ),
      (err: Error) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
