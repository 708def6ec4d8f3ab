// `make run`: migrate, make dev credentials, start every process, wait for health, print how to
// call the platform, and stop everything on Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { buildVersion } from '@idv/service-runtime';
import { loadConfig, PlatformConfig, resolveMasterKey } from '@idv/config';
import { createDatabase, ensureDatabaseExists } from '@idv/db';
import { adminKeyring } from '../../services/admin-cli/src/commands.ts';
import { migrateAll } from '../../services/admin-cli/src/migrateAll.ts';
import { devCredentials } from './devCredentials.ts';
import { DEV_REVIEW_CONFIG, devReviewCase } from './devReviewCase.ts';
import { DEV_SESSION_CONFIG, devSession } from './devSession.ts';
import { devCommand, devProcesses, type DevProcess } from './processes.ts';

const config = loadConfig(PlatformConfig);
await ensureDatabaseExists(config.DATABASE_URL);
const db = createDatabase({ url: config.DATABASE_URL, applicationName: 'idv-dev' });
const master = resolveMasterKey(config, (line) => console.error(line));
const { keyring, close } = await adminKeyring(db, master, config);
await migrateAll(db, keyring, (moved, column) =>
  console.error(`moved ${moved} values sealed under MASTER_KEY alone under data keys (${column})`),
);
const consoleUrl = process.env.CONSOLE_PUBLIC_URL ?? 'http://localhost:8084';
const credentials = await devCredentials(db, keyring, {
  masterKey: master.key,
  operatorsCommunity: config.OPERATORS_COMMUNITY,
  consoleUrl,
});
close();
await db.destroy();

const env = { ...process.env, BUILD_VERSION: buildVersion(config.BUILD_VERSION) };
mkdirSync('.local/logs', { recursive: true });
const children = new Map<string, ChildProcess>();
let stopping = false;

function start(proc: DevProcess): void {
  const log = createWriteStream(`.local/logs/${proc.name}.log`, { flags: 'a' });
  const [command, args] = devCommand(proc);
  const child = spawn(command, args, {
    env: { ...env, ...proc.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const startedAt = Date.now();
  child.on('exit', (code, signal) => {
    children.delete(proc.name);
    if (stopping) return;
    // like a container's restart policy: start it again, backing off while it keeps crashing
    const quick = Date.now() - startedAt < 10_000;
    const attempt = quick ? (restarts.get(proc.name) ?? 0) + 1 : 1;
    restarts.set(proc.name, attempt);
    const delayMs = Math.min(30_000, 500 * 2 ** (attempt - 1));
    console.error(
      `${proc.name} exited (${signal ?? code}); restarting in ${delayMs} ms; see .local/logs/${proc.name}.log`,
    );
    setTimeout(() => {
      if (!stopping) start(proc);
    }, delayMs);
  });
  children.set(proc.name, child);
}
const restarts = new Map<string, number>();

/** Healthy only while our own child lives: another process on the port does not count. */
async function healthy(name: string, url: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline && children.has(name)) {
    try {
      if ((await fetch(url)).status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return false;
}

function stopAll(): void {
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 12_000).unref();
  const wait = setInterval(() => {
    if (children.size === 0) {
      clearInterval(wait);
      process.exit(0);
    }
  }, 100);
}
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
// whatever ends this process, the services it started end with it
process.on('exit', () => {
  for (const child of children.values()) child.kill('SIGTERM');
});

const processes = devProcesses({
  ...process.env,
  CONSOLE_PUBLIC_URL: consoleUrl,
  CONSOLE_CLIENT_ID: credentials.console.clientId,
  CONSOLE_CLIENT_SECRET: credentials.console.clientSecret,
});
processes.forEach(start);
const deadline = Date.now() + 60_000;
const results = await Promise.all(
  processes.map(
    async (p) => [p, p.healthUrl ? await healthy(p.name, p.healthUrl, deadline) : true] as const,
  ),
);
const failed = results.filter(([, ok]) => !ok).map(([p]) => p.name);
if (failed.length > 0) {
  console.error(`not healthy within 60 s: ${failed.join(', ')}; logs in .local/logs/`);
  stopAll();
} else {
  const urls = processes
    .filter((p) => p.healthUrl)
    // the console at the address its cookies and its issuer's redirect are made for
    .map(
      (p) =>
        `  ${p.name.padEnd(20)} ${p.name === 'console' ? credentials.console.url : p.healthUrl!.replace('/healthz', '')}`,
    );
  const base = (name: string) =>
    processes.find((p) => p.name === name)!.healthUrl!.replace('/healthz', '');
  const session = await devSession(
    credentials,
    base('docverify-gateway'),
    base('provider-sandbox'),
  ).then(
    (made) => `Try a verification session (config ${DEV_SESSION_CONFIG}) in a browser:
  ${made.url}
  upload the sample images of ${made.samples}/ on the page (the sandbox knows Testy McTestface);
  follow it: ${made.sessionId} (POST /document_share_session/result, or the SDK's waitForSession)`,
    (err: Error) => `No ready session (${err.message}); see .local/logs/docverify-gateway.log`,
  );
  // after the session: the review config uses the verifiers devSession made
  const reviewCase = await devReviewCase({
    docverifyUrl: base('docverify-gateway'),
    licenseKey: credentials.licences.service,
    keyPair: credentials.caller,
    communityId: credentials.community.id,
    tenantId: credentials.tenant.id,
  }).then(
    (
      open,
    ) => `A review case waits in the console's queue (config ${DEV_REVIEW_CONFIG}: a selfie of someone else):
  ${credentials.console.url}/#/case/${credentials.community.id}/${open.caseId}`,
    (err: Error) => `No review case (${err.message}); see .local/logs/docverify-gateway.log`,
  );
  console.log(`
The identity verification platform is running (logs in .local/logs/, Ctrl-C stops it).

Services:
${urls.join('\n')}
API reference:  /docs of each service but the console and the sandbox, e.g. ${base('docverify-gateway')}/docs

Dev tenant:     ${credentials.tenant.id}  (${credentials.tenant.name})
Dev community:  ${credentials.community.id}  (${credentials.community.name})
Licences:
  system        ${credentials.licences.system}
  service       ${credentials.licences.service}  (covers the dev community)
Caller key pair (secp256k1, base64):
  publicKey     ${credentials.caller.publicKey}
  privateKey    ${credentials.caller.privateKey}
OAuth (issuer http://127.0.0.1:8080/community/${credentials.community.name}):
  client_id     ${credentials.oauth.clientId}
  client_secret ${credentials.oauth.clientSecret}
  redirect_uri  ${credentials.oauth.redirectUri}
  login         ${credentials.oauth.username} / ${credentials.oauth.password}
Operator console: ${credentials.console.url}
  (issuer http://localhost:8080/community/${credentials.operator.community}, second factor required)
  login         ${credentials.operator.username} / ${credentials.operator.password}  (role admin)
  TOTP secret   ${credentials.operator.totpSecret}  (add it to an authenticator app, or:
                npx tsx infra/dev/totp.ts ${credentials.operator.totpSecret})
These are also in .local/dev-credentials.json.

Try it:
  LICENSE=${credentials.licences.system} npx tsx infra/dev/example.ts

${session}

${reviewCase}
`);
}
