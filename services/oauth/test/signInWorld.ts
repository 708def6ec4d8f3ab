// The world of the sign-in rules tests: one oauth service whose log lines are captured, the
// login events of its communities collected from RabbitMQ, communities made with their settings
// before the service first reads them (it keeps them 5 s), and people signing in over HTTP.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import * as client from 'openid-client';
import { generate } from 'otplib';
import { createBroker, type Broker } from '@idv/broker';
import type { EventEnvelope } from '@idv/contracts';
import { testAmqpUrl } from '@idv/testing/testServers';
import { createLogger } from '@idv/observability';
import { TenantStore } from '@idv/platform';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { captureServiceLogs, type LogCapture } from '@idv/testing/logCapture';
import { createOauthAccount, createOauthClient } from '../src/admin.ts';
import { setLoginLimits, setMfaPolicy, type SignInAdminContext } from '../src/signInAdmin.ts';
import { headingOf, HttpBrowser, type Answer } from '@idv/testing/httpBrowser';
import { startOauthUnderTest, type OauthUnderTest } from './support.ts';

export const REDIRECT = 'https://rp.example.test/callback';
export const PASSWORD = 'correct horse battery';
export { SETTINGS_CACHE_MS } from '../src/store/signInSettings.ts';
/** limits under which nothing is slowed or locked: for the groups not about brute force */
const LENIENT = {
  freeFailures: '500',
  lockAfter: '1000',
  accountFreeFailures: '5000',
  addressFreeFailures: '5000',
};

export type Claims = client.IDToken;
export type LoginEvent = EventEnvelope & { data: Record<string, unknown> };

export interface Place {
  name: string;
  id: string;
  issuer: string;
  client: { client_id: string; client_secret: string };
  config: client.Configuration;
}

export interface Started {
  answer: Answer;
  /** the consent (if asked) and the code's tokens: the ID token's claims */
  finish(answer: Answer): Promise<Claims>;
  /** the access token `finish` got */
  accessToken?: string;
}

/** The interaction a page belongs to (/community/{name}/v1/interaction/{uid}): its forms' base. */
export function here(answer: Answer): string {
  const base = /^.*\/v1\/interaction\/[^/?]+/.exec(answer.url)?.[0];
  if (!base) throw new Error(`not a sign-in page: ${answer.url}`);
  return base;
}

export const expectPage = (answer: Answer, heading: string) =>
  expect(headingOf(answer.text), `${answer.status} ${answer.text.slice(0, 400)}`).to.equal(heading);

export class SignInWorld {
  /** every HTML page any person of the world was shown (redirects aside) */
  readonly pages: Answer[] = [];
  /** the login events of the world's communities */
  readonly events: LoginEvent[] = [];
  /** usernames and passwords the world typed: none may reach a log line or an event */
  readonly typed = new Set<string>([PASSWORD]);
  private readonly ours = new Set<string>();
  private readonly queue = `test.oauth.sign-in-rules.${randomBytes(4).toString('hex')}`;
  private eventsFlowing: Promise<void> = Promise.resolve();

  private constructor(
    readonly oauth: OauthUnderTest,
    readonly capture: LogCapture,
    private readonly listener: Broker,
  ) {}

  static async start(): Promise<SignInWorld> {
    const capture = captureServiceLogs();
    const oauth = await startOauthUnderTest({ TRUST_PROXY: 'true', LOG_LEVEL: 'debug' });
    const listener = createBroker({
      url: await testAmqpUrl(),
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    const world = new SignInWorld(oauth, capture, listener);
    await listener.subscribeEvents(
      world.queue,
      ['E_OAUTH_LOGIN_FAILED', 'E_OAUTH_ACCOUNT_LOCKED', 'E_OAUTH_LOGIN_SUCCEEDED'],
      (event) => {
        if (world.ours.has(event.communityId)) world.events.push(event as LoginEvent);
      },
    );
    await oauth.service.runtime.broker.waitUntilConnected(15_000);
    await world.warmUpEvents();
    return world;
  }

  /**
   * The first event a fresh service publishes may wait for the next write on its connection
   * (see unknownAccount.test.ts): failed logins at a community of their own until one comes
   * through, while the tests go on; eventsArrive() waits for it.
   */
  private async warmUpEvents(): Promise<void> {
    const warm = await this.place('warm');
    const browser = this.person('192.0.2.250');
    this.eventsFlowing = (async () => {
      const deadline = Date.now() + 30_000;
      while (!this.events.some((e) => e.communityId === warm.id) && Date.now() < deadline) {
        const { answer } = await this.start(warm, browser);
        await this.password(browser, answer, 'testy-warm-up', 'not the password');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();
  }

  /** The events of `communityId` once `enough` says they are all there (or 10 s passed). */
  async eventsOf(communityId: string, enough: (events: LoginEvent[]) => boolean) {
    await this.eventsFlowing;
    const deadline = Date.now() + 10_000;
    const mine = () => this.events.filter((e) => e.communityId === communityId);
    while (!enough(mine()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return mine();
  }

  async stop(): Promise<void> {
    this.capture.restore();
    await this.listener.close();
    await deleteQueues(await testAmqpUrl(), [this.queue]);
    await this.oauth.stop();
  }

  admin(): SignInAdminContext {
    return { ...this.oauth.admin(), actor: 'test:sign-in-rules' };
  }

  get db() {
    return this.oauth.database.db;
  }

  /** A community of its own, its settings made before the service reads them, and a client. */
  async place(
    label: string,
    setup: { policy?: string; limits?: Record<string, string>; clientName?: string } = {},
  ): Promise<Place> {
    const community = await new TenantStore(this.db).createCommunity(
      this.oauth.community.tenantId,
      `${label}-${randomBytes(3).toString('hex')}`,
    );
    this.ours.add(community.id);
    const web = await createOauthClient(this.admin(), {
      community: community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code'],
      name: setup.clientName ?? 'Testy Bank',
    });
    if (setup.policy) {
      const policy = { community: community.name, policy: setup.policy, factors: [] };
      await setMfaPolicy(this.admin(), policy);
    }
    const limits = setup.limits ?? LENIENT;
    await setLoginLimits(this.admin(), { community: community.name, limits, reset: false });
    // on localhost: WebAuthn takes no IP address as its relying party (no passkeys offered there)
    const issuer = this.oauth.issuer(community).replace('//127.0.0.1:', '//localhost:');
    const config = await client.discovery(
      new URL(issuer),
      web.client_id,
      web.client_secret,
      client.ClientSecretBasic(web.client_secret),
      { execute: [client.allowInsecureRequests] },
    );
    return { name: community.name, id: community.id, issuer, client: web, config };
  }

  async account(p: Place, username: string, displayName = 'Testy McTestface'): Promise<string> {
    this.typed.add(username);
    const created = await createOauthAccount(this.admin(), {
      community: p.name,
      username,
      password: PASSWORD,
      displayName,
    });
    return created.accountId;
  }

  /** A person's browser, seen from `address` (X-Forwarded-For: the service trusts its proxy). */
  person(address: string, headers: Record<string, string> = {}): HttpBrowser {
    return new HttpBrowser({ 'x-forwarded-for': address, ...headers }, (answer) => {
      const page = answer.headers.get('content-type')?.startsWith('text/html');
      if (page && !answer.location) this.pages.push(answer);
    });
  }

  /** Starts an authorization; the answer is the page the browser lands on (or the callback). */
  async start(
    p: Place,
    browser: HttpBrowser,
    extra: Record<string, string> = {},
  ): Promise<Started> {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(p.config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    });
    const answer = await browser.go(url.href, REDIRECT);
    const started: Started = {
      answer,
      finish: async (last) => {
        let current = last;
        if (headingOf(current.text) === 'Allow access')
          current = await this.submit(browser, current, 'consent', { decision: 'allow' });
        expect(current.location, `${current.status} ${current.text.slice(0, 300)}`).to.match(
          /^https:\/\/rp\.example\.test\/callback\?code=/,
        );
        const tokens = await client.authorizationCodeGrant(p.config, new URL(current.location!), {
          pkceCodeVerifier: verifier,
          expectedState: state,
        });
        started.accessToken = tokens.access_token;
        return tokens.claims()!;
      },
    };
    return started;
  }

  /** Posts one of the page's forms (`path` below the interaction) and follows the redirects. */
  submit(browser: HttpBrowser, page: Answer, path: string, form: Record<string, string> | string) {
    return browser.go(`${here(page)}/${path}`, REDIRECT, { form });
  }

  password(browser: HttpBrowser, page: Answer, username: string, secret = PASSWORD) {
    this.typed.add(username).add(secret);
    return this.submit(browser, page, 'login', { username, password: secret });
  }

  /** A TOTP code of now, good once: the factor's last used step is moved back first. */
  async code(accountId: string, secret: string): Promise<string> {
    await this.db('oauth.account_factors')
      .where({ account_id: accountId, kind: 'totp' })
      .update({ totp_last_step: this.db.raw('totp_last_step - 4') });
    return generate({ secret });
  }

  /** Enrols an authenticator app on the enrolment page: its secret and the recovery codes. */
  async enrolTotp(browser: HttpBrowser, page: Answer) {
    const screen = await browser.go(`${here(page)}?screen=totp`, REDIRECT);
    expectPage(screen, 'Add an authenticator app');
    const secret = /<code id="secret">([^<]*)<\/code>/.exec(screen.text)![1]!.replace(/\s/g, '');
    const codes = await this.submit(browser, screen, 'enrol/totp', {
      code: await generate({ secret }),
    });
    expectPage(codes, 'Save your recovery codes');
    const recovery = [...codes.text.matchAll(/<li><code>([^<]*)<\/code><\/li>/g)].map((m) => m[1]!);
    return { secret, recovery, page: codes };
  }

  /**
   * Moves the account's history `seconds` into the past: its sessions' sign-in and its last
   * credentials change (else the sessions would predate it).
   */
  async agePast(accountId: string, seconds: number): Promise<void> {
    await this.db.raw(
      `UPDATE oauth.oidc_models SET payload = jsonb_set(payload, '{loginTs}',
         to_jsonb((payload->>'loginTs')::bigint - ?))
       WHERE model = 'Session' AND payload->>'accountId' = ?`,
      [seconds, accountId],
    );
    await this.db('oauth.accounts')
      .where({ account_id: accountId })
      .update({
        credentials_changed_at: this.db.raw(`credentials_changed_at - ? * interval '1 second'`, [
          seconds,
        ]),
      });
  }

  /** Every throttle delay of the community run out now (locks stay). */
  async skipDelays(p: Place): Promise<void> {
    await this.db('oauth.login_throttle')
      .where({ community_id: p.id })
      .whereNotNull('next_allowed_at')
      .update({ next_allowed_at: this.db.raw(`now() - interval '1 second'`) });
  }

  /** The delay the last counted failure at the community set for its pair, in seconds. */
  async lastPairDelay(p: Place): Promise<number> {
    const row = (await this.db('oauth.login_throttle')
      .where({ community_id: p.id })
      .whereRaw('length(subject) > 0 AND length(address) > 0')
      .orderBy('updated_at', 'desc')
      .first(this.db.raw('extract(epoch from next_allowed_at - updated_at) AS delay'))) as
      { delay: string | null } | undefined;
    return Math.round(Number(row?.delay ?? 0));
  }
}
