// Composition root of the operator console, read top to bottom: config, runtime, sessions and the
// issuer, the guards, the routes, listen behind the security headers.
import express from 'express';
import { loadConfig } from '@idv/config';
import { createHttpApp, startHttpServer, type RunningServer } from '@idv/http';
import { healthRoutes } from '@idv/service-runtime';
import type { ApiGuards } from './access/apiRoute.ts';
import { sameOriginWrites } from './access/sameOrigin.ts';
import { adminRoutes } from './api/adminRoutes.ts';
import { auditRoutes } from './api/auditRoutes.ts';
import { readRoutes } from './api/readRoutes.ts';
import { reviewRoutes } from './api/review.ts';
import { ConsoleConfig } from './config.ts';
import { createConsoleRuntime, type ConsoleRuntime } from './consoleRuntime.ts';
import { gatewayCall } from './gateways/gatewayCall.ts';
import { assertCookieOrigin } from './login/cookies.ts';
import { operatorsIssuer } from './login/issuer.ts';
import { loginRoutes } from './login/loginRoutes.ts';
import { loginStateBox } from './login/loginState.ts';
import { sessionGuard } from './sessions/sessionGuard.ts';
import { SessionStore } from './sessions/sessionStore.ts';
import { securityHeaders } from './web/securityHeaders.ts';
import { webFiles } from './web/webFiles.ts';
import { webRoutes } from './web/webRoutes.ts';

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_LIFETIME_MS = 12 * 3600_000;

export interface StartedConsole {
  runtime: ConsoleRuntime;
  server: RunningServer;
  stop(): Promise<void>;
}

export async function startConsole(
  env: Record<string, string | undefined> = process.env,
  options: { logDestination?: NodeJS.WritableStream } = {},
): Promise<StartedConsole> {
  const settings = loadConfig(ConsoleConfig, env);
  const publicUrl = settings.CONSOLE_PUBLIC_URL;
  assertCookieOrigin(publicUrl);
  const runtime = await createConsoleRuntime(env, options.logDestination);
  const { db, keyring, logger, lifecycle } = runtime;

  // sessions and the issuer
  const sessions = new SessionStore(db, keyring, {
    idleMs: SESSION_IDLE_MS,
    lifetimeMs: SESSION_LIFETIME_MS,
  });
  const issuer = operatorsIssuer({
    issuer: settings.CONSOLE_OIDC_ISSUER,
    clientId: settings.CONSOLE_CLIENT_ID,
    clientSecret: settings.CONSOLE_CLIENT_SECRET,
  });
  const sweep = setInterval(() => {
    sessions.sweep().catch((err: unknown) => logger.warn({ err }, 'console session sweep failed'));
  }, 60_000).unref();

  // guards
  const sameOrigin = sameOriginWrites(publicUrl);
  const guards: ApiGuards = { sameOrigin, session: sessionGuard({ sessions, issuer, logger }) };

  // routes
  const docverify = gatewayCall(settings.DOCVERIFY_INTERNAL_URL);
  const routes = [
    ...healthRoutes(runtime),
    ...webRoutes(webFiles(settings.CONSOLE_WEB_DIR)),
    ...loginRoutes({
      publicUrl,
      issuer,
      loginState: loginStateBox(runtime.masterKey),
      sessions,
      sessionLifetimeS: SESSION_LIFETIME_MS / 1000,
      sameOrigin,
      db,
      logger,
    }),
    ...readRoutes({ guards, db, keyring }),
    ...auditRoutes({ guards, db }),
    ...adminRoutes({
      guards,
      db,
      keyring,
      sessions,
      webhooks: gatewayCall(settings.WEBHOOKS_INTERNAL_URL),
      docverify,
    }),
    ...reviewRoutes({ guards, sessions, docverify }),
  ];

  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders(settings.CONSOLE_OIDC_ISSUER));
  app.use(
    createHttpApp({
      logger,
      registry: runtime.registry,
      routes,
      bodyLimit: runtime.platform.HTTP_BODY_LIMIT,
      trustProxy: runtime.platform.TRUST_PROXY,
      unavailable: runtime.unavailable,
    }),
  );
  const server = await startHttpServer(app, settings.CONSOLE_PORT);
  lifecycle.onStop('http', 0, () => server.stop(runtime.platform.SHUTDOWN_TIMEOUT_MS));
  lifecycle.onStop('session sweep', 10, async () => clearInterval(sweep));
  logger.info({ port: server.port, version: runtime.version, publicUrl }, 'console listening');
  return { runtime, server, stop: () => lifecycle.stop() };
}
