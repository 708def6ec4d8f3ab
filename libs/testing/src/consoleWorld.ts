// The console's test world: the platform's services on a fresh database (platform.ts, or
// a session world's with connectors and the sandbox, for the browser suite),
// the console schema migrated, the console listening on a port known before it starts (its public
// URL is the client's redirect URI), a client of the operators' issuer, and operators who sign in
// over HTTP with their password and a TOTP code, as a browser would.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { generate } from 'otplib';
import { migrate } from '@idv/db';
import type { OperatorRole } from '@idv/auth';
import { startPlatform, platformKeyring, type RunningPlatform } from './platform.ts';
import { freePort } from './freePort.ts';
import { createOauthClient } from '../../../services/oauth/src/admin.ts';
import { createOperator, operatorsCommunity } from '../../../services/oauth/src/operatorAdmin.ts';
import { enrolTotp } from '../../../services/oauth/src/signInAdmin.ts';
import { HttpBrowser, headingOf, type Answer } from './httpBrowser.ts';
import { consoleMigrations } from '../../../services/console/src/migrations.ts';
import { startConsole, type StartedConsole } from '../../../services/console/src/start.ts';

export const PASSWORD = 'correct horse battery';

export interface TestOperator {
  username: string;
  accountId: string;
  totpSecret: string;
}

/** The interaction a sign-in page belongs to: its forms' base. */
const interactionOf = (answer: Answer) => {
  const base = /^.*\/v1\/interaction\/[^/?]+/.exec(answer.url)?.[0];
  if (!base)
    throw new Error(
      `not a sign-in page: ${answer.status} ${answer.url} ${answer.text.slice(0, 200)}`,
    );
  return base;
};

export class ConsoleWorld {
  private constructor(
    readonly platform: RunningPlatform,
    readonly console: StartedConsole,
    readonly url: string,
    private readonly stopPlatform: () => Promise<void>,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<ConsoleWorld> {
    const platform = await startPlatform({
      OPERATORS_USERINFO_URL: 'http://127.0.0.1:1/unset',
      ...env,
    });
    return ConsoleWorld.over(platform, () => platform.stop(), env);
  }

  /**
   * The console over a platform started elsewhere (a session world with connectors, for the
   * browser suite); `stopPlatform` ends it with the console.
   */
  static async over(
    platform: RunningPlatform,
    stopPlatform: () => Promise<void>,
    env: Record<string, string> = {},
  ): Promise<ConsoleWorld> {
    const port = await freePort();
    const url = `http://localhost:${port}`;
    await migrate(platform.database.db, [consoleMigrations]);
    const oauthPort = new URL(platform.services.oauth.url).port;
    const ctx = ConsoleWorld.adminOf(platform);
    await operatorsCommunity(ctx);
    const client = await createOauthClient(ctx, {
      community: 'operators',
      redirectUris: [`${url}/auth/callback`],
      grantTypes: [],
      name: 'Operator console',
      console: true,
    });
    const started = await startConsole({
      ...platform.env,
      CONSOLE_PORT: String(port),
      CONSOLE_PUBLIC_URL: url,
      CONSOLE_OIDC_ISSUER: `http://localhost:${oauthPort}/community/operators`,
      CONSOLE_CLIENT_ID: client.client_id,
      CONSOLE_CLIENT_SECRET: client.client_secret,
      DOCVERIFY_INTERNAL_URL: platform.services.docverify.url,
      WEBHOOKS_INTERNAL_URL: platform.services.webhooks.url,
      ...env,
    });
    return new ConsoleWorld(platform, started, url, stopPlatform);
  }

  private static adminOf(platform: RunningPlatform) {
    const masterKey = Buffer.from(platform.env.MASTER_KEY!, 'base64');
    return {
      db: platform.database.db,
      keyring: platformKeyring(platform),
      masterKey,
      operatorsCommunity: 'operators',
      actor: 'test:console',
    };
  }

  get db() {
    return this.platform.database.db;
  }

  async stop(): Promise<void> {
    await this.console.stop();
    await this.stopPlatform();
  }

  /** An operator with `roles` (and `communities`; none: every one), enrolled with TOTP. */
  async operator(roles: OperatorRole[], communities: string[] = []): Promise<TestOperator> {
    const ctx = ConsoleWorld.adminOf(this.platform);
    const username = `testy-${roles.join('-')}-${randomBytes(3).toString('hex')}`;
    await createOperator(ctx, { username, roles, communities, password: PASSWORD });
    const { totpSecret } = await enrolTotp(ctx, { community: 'operators', username });
    const row = (await this.db('oauth.accounts').where({ username }).first('account_id')) as {
      account_id: string;
    };
    return { username, accountId: row.account_id, totpSecret };
  }

  /** A TOTP code of now, good once: the factor's last used step is moved back first. */
  async code(operator: TestOperator): Promise<string> {
    await this.db('oauth.account_factors')
      .where({ account_id: operator.accountId, kind: 'totp' })
      .update({ totp_last_step: this.db.raw('totp_last_step - 4') });
    return generate({ secret: operator.totpSecret });
  }

  /** Signs `operator` in through /auth/login; answers the browser holding the session cookie. */
  async signIn(
    operator: TestOperator,
    browser = new HttpBrowser(),
    login = '/auth/login',
  ): Promise<HttpBrowser> {
    const callback = `${this.url}/auth/callback`;
    const page = await browser.go(`${this.url}${login}`, callback);
    let answer = await browser.go(`${interactionOf(page)}/login`, callback, {
      form: { username: operator.username, password: PASSWORD },
    });
    if (!answer.location?.startsWith(callback))
      answer = await browser.go(`${interactionOf(answer)}/totp`, callback, {
        form: { code: await this.code(operator) },
      });
    if (headingOf(answer.text) === 'Allow access')
      answer = await browser.go(`${interactionOf(answer)}/consent`, callback, {
        form: { decision: 'allow' },
      });
    expect(answer.location, `${answer.status} ${answer.text.slice(0, 300)}`).to.match(
      /\/auth\/callback\?/,
    );
    const landed = await browser.request(answer.location!);
    expect(landed.status, landed.text.slice(0, 300)).to.equal(200);
    return browser;
  }
}
