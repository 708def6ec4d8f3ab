// The processes `make run` starts; later services and workers add their line here.
export interface DevProcess {
  name: string;
  entry: string;
  /** health URL polled until 200; absent for workers without HTTP */
  healthUrl?: string;
  env?: Record<string, string>;
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
    },
    {
      name: 'webhooks-gateway',
      entry: 'services/webhooks-gateway/src/main.ts',
      healthUrl: `http://127.0.0.1:${port('WEBHOOKS_PORT', 8082)}/healthz`,
    },
  ];
}
