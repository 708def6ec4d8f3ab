// The processes `make run` starts: the HTTP services, the provider sandbox, and one process per
// queue worker of infra/workers.ts (a connector worker per type, the capture checker); later
// services add their line here, later workers their entry in that list.
import { cpuBound, CPU_BOUND_NICE, queueWorkers } from '../workers.ts';

export interface DevProcess {
  name: string;
  entry: string;
  /** health URL polled until 200; absent for workers without HTTP */
  healthUrl?: string;
  env?: Record<string, string>;
  /** a lower CPU priority (nice) for a CPU-bound worker: see infra/workers.ts */
  nice?: number;
}

/** The command that starts `proc`: node with tsx, under `nice` for a CPU-bound worker. */
export function devCommand(proc: DevProcess, nodeArgs: string[] = []): [string, string[]] {
  const node = [...nodeArgs, '--import', 'tsx', proc.entry];
  return proc.nice
    ? ['nice', ['-n', String(proc.nice), process.execPath, ...node]]
    : [process.execPath, node];
}

export function devProcesses(env: Record<string, string | undefined>): DevProcess[] {
  const port = (name: string, fallback: number) => Number(env[name] ?? fallback);
  return [
    {
      name: 'oauth',
      entry: 'services/oauth/src/main.ts',
      healthUrl: `http://127.0.0.1:${port('OAUTH_PORT', 8080)}/healthz`,
    },
    {
      name: 'docverify-gateway',
      entry: 'services/docverify-gateway/src/main.ts',
      healthUrl: `http://127.0.0.1:${port('DOCVERIFY_PORT', 8081)}/healthz`,
      // dev only: the provider sandbox on this machine calls back reviews decided later
      env: {
        CONNECTOR_CALLBACK_URL:
          env.CONNECTOR_CALLBACK_URL ?? `http://127.0.0.1:${port('DOCVERIFY_PORT', 8081)}`,
      },
    },
    {
      name: 'webhooks-gateway',
      entry: 'services/webhooks-gateway/src/main.ts',
      healthUrl: `http://127.0.0.1:${port('WEBHOOKS_PORT', 8082)}/healthz`,
    },
    {
      name: 'webhook-dispatcher',
      entry: 'services/webhook-dispatcher/src/main.ts',
      healthUrl: `http://127.0.0.1:${port('WEBHOOK_DISPATCHER_PORT', 8083)}/healthz`,
      // dev only: callbacks may go to receivers on this machine
      env: { WEBHOOK_SSRF_ALLOW: env.WEBHOOK_SSRF_ALLOW ?? '127.0.0.1/32,::1/128' },
    },
    {
      name: 'console',
      entry: 'services/console/src/main.ts',
      healthUrl: `http://127.0.0.1:${port('CONSOLE_PORT', 8084)}/healthz`,
      // dev only: the console's client at the operators' issuer, made by infra/dev/devCredentials
      env: Object.fromEntries(
        ['CONSOLE_PUBLIC_URL', 'CONSOLE_CLIENT_ID', 'CONSOLE_CLIENT_SECRET'].flatMap((name) =>
          env[name] ? [[name, env[name]]] : [],
        ),
      ),
    },
    {
      name: 'provider-sandbox',
      entry: 'services/provider-sandbox/src/main.ts',
      healthUrl: `http://127.0.0.1:${port('SANDBOX_PORT', 8090)}/healthz`,
    },
    ...queueWorkers().map((worker) => ({
      name: worker.process,
      entry: worker.entry,
      env: worker.env,
      ...(cpuBound(worker) ? { nice: CPU_BOUND_NICE } : {}),
    })),
  ];
}
