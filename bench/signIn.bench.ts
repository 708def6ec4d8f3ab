// Sign-in (issue 27): a whole login with password and TOTP against a password-only login, both
// through the oauth service over HTTP as a browser makes them, in the same run. Goal: at most 1.3 x.
import { createHash, randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { localKeyring, type Community } from '@idv/platform';
import { createOauthAccount, createOauthClient } from '../services/oauth/src/admin.ts';
import {
  enrolTotp,
  setMfaPolicy,
  type SignInAdminContext,
} from '../services/oauth/src/signInAdmin.ts';
import { AccountStore } from '../services/oauth/src/store/accountStore.ts';
import { spreadOf, type Comparison } from './harness.ts';
import { benchOauth } from './oauth.bench.ts';

const ROUNDS = 5;
/** logins of each kind per round, the two kinds taking turns login by login */
const LOGINS_PER_ROUND = 10;
/** unmeasured logins of each kind first (V8 tiers up the provider's and the pages' code) */
const WARM_UP_LOGINS = 4;
const GOAL = 1.3;
const REDIRECT = 'https://rp.example.test/callback';
const PASSWORD = 'correct horse battery';

/** A person signing in; a TOTP code is good once per account, so each login has an account. */
interface Person {
  username: string;
  totpSecret?: string;
}

/** What a sign-in came back with: a page of the service, or the client's redirect_uri. */
type Landing = { url: URL; page: string } | { url: URL; page?: undefined };

/** One browser: its cookies (name, value, path; a single host), its requests and forms sent. */
class Browser {
  private readonly cookies = new Map<string, { pair: string; path: string }>();
  requests = 0;
  readonly forms: string[] = [];

  async send(url: URL, form?: Record<string, string>): Promise<Response> {
    const cookie = this.cookieFor(url);
    const res = await fetch(url, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
      ...(form ? { method: 'POST', body: new URLSearchParams(form) } : {}),
    });
    this.requests++;
    for (const line of res.headers.getSetCookie()) this.keep(url, line);
    return res;
  }

  private cookieFor(url: URL): string {
    const within = (path: string) =>
      url.pathname === path || url.pathname.startsWith(path.replace(/\/?$/, '/'));
    return [...this.cookies.values()]
      .filter(({ path }) => within(path))
      .map(({ pair }) => pair)
      .join('; ');
  }

  private keep(url: URL, setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
    const attribute = (name: string) =>
      attributes.find((a) => a.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1);
    const path = attribute('path') ?? (url.pathname.replace(/\/[^/]*$/, '') || '/');
    const key = `${pair.slice(0, pair.indexOf('='))};${path}`;
    const expires = attribute('expires');
    const gone =
      Number(attribute('max-age') ?? 1) <= 0 || (expires && Date.parse(expires) <= Date.now());
    if (gone) this.cookies.delete(key);
    else this.cookies.set(key, { pair, path });
  }

  /** Follows redirects as a browser does, until a page (200) or the client's redirect_uri. */
  async land(url: URL, form?: Record<string, string>): Promise<Landing> {
    let res = await this.send(url, form);
    while (res.status === 302 || res.status === 303) {
      url = new URL(res.headers.get('location') ?? '', url);
      if (url.href.startsWith(REDIRECT)) return { url };
      res = await this.send(url);
    }
    const page = await res.text();
    if (res.status !== 200) throw new Error(`${url.pathname}: ${res.status} ${page.slice(0, 200)}`);
    return { url, page };
  }

  /** Posts the page's form whose action ends in `/${name}`. */
  async submit(at: Landing, name: string, fields: Record<string, string>): Promise<Landing> {
    const actions = [...(at.page ?? '').matchAll(/action="([^"]+)"/g)].map((m) => m[1]!);
    const action = actions.find((a) => a.endsWith(`/${name}`));
    if (!action)
      throw new Error(
        `no ${name} form at ${at.url.pathname} (forms: ${actions.join(', ') || 'none'})`,
      );
    this.forms.push(name);
    return this.land(new URL(action, at.url), fields);
  }
}

interface Client {
  issuer: string;
  id: string;
  basic: string;
}

/** The code at the token endpoint (PKCE, HTTP Basic); throws unless the ID token's amr is `amr`. */
async function redeem(client: Client, code: string, verifier: string, amr: string): Promise<void> {
  const res = await fetch(`${client.issuer}/v1/token`, {
    method: 'POST',
    headers: { authorization: client.basic },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }),
  });
  const { id_token: idToken = '' } = (await res.json()) as { id_token?: string };
  const payload = Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString() || '{}';
  const said = [...((JSON.parse(payload) as { amr?: string[] }).amr ?? [])].sort().join(' ');
  if (res.status !== 200 || said !== amr)
    throw new Error(`token endpoint answered ${res.status}, amr "${said}" (expected "${amr}")`);
}

/**
 * A whole sign-in, from the client's authorize URL to its tokens, in a fresh browser: the login
 * page, the password, the TOTP page and code if the person has one, consent if asked, then the
 * tokens. Answers the browser's requests (the token call one more) and the forms it sent; throws
 * unless the tokens say the factors used.
 */
async function signIn(client: Client, person: Person, totpCode?: string) {
  const browser = new Browser();
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('base64url');
  const authorize = new URL(`${client.issuer}/v1/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.id,
    redirect_uri: REDIRECT,
    scope: 'openid',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  let at = await browser.land(authorize);
  at = await browser.submit(at, 'login', { username: person.username, password: PASSWORD });
  if (totpCode) at = await browser.submit(at, 'totp', { code: totpCode });
  if (at.page) at = await browser.submit(at, 'consent', { decision: 'allow' });
  const code = at.url.searchParams.get('code');
  if (!code || at.url.searchParams.get('state') !== state)
    throw new Error(`back at the client without a code: ${at.url.search}`);
  await redeem(client, code, verifier, totpCode ? 'mfa otp pwd' : 'pwd');
  return { requests: browser.requests + 1, forms: browser.forms.join(', ') };
}

/** The `p` quantile of `values` (0.5: the median). */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
};

/** One side's logins: the ms of each one measured, the last one's flow, what went wrong. */
class Side {
  readonly ms: number[] = [];
  /** what the last login took: its requests and the forms it sent */
  flow = { requests: 0, forms: '' };
  readonly failures: string[] = [];

  constructor(readonly people: Person[]) {}

  /** The next person's sign-in, timed (a TOTP code is made before, as a phone shows it). */
  async login(client: Client, measured: boolean): Promise<void> {
    const person = this.people.shift();
    if (!person) throw new Error('more logins than accounts');
    const code = person.totpSecret ? await generate({ secret: person.totpSecret }) : undefined;
    const start = process.hrtime.bigint();
    try {
      this.flow = await signIn(client, person, code);
    } catch (err) {
      this.failures.push(`${person.username}: ${(err as Error).message}`);
      return;
    }
    if (measured) this.ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');

/**
 * `count` people of each kind under the optional policy: password-only ones who said "not now"
 * to its offer of a second factor, and ones with TOTP enrolled through the admin CLI's own keyring
 * (so the service's keyring holds no account's data key before its login).
 */
async function people(admin: SignInAdminContext, community: Community, count: number) {
  const accounts = new AccountStore(admin.db);
  const passwordOnly: Person[] = [];
  const withTotp: Person[] = [];
  const person = (username: string) =>
    createOauthAccount(admin, {
      community: community.name,
      username,
      password: PASSWORD,
      displayName: 'Testy McTestface',
    });
  // two at a time: scrypt runs on the libuv pool, the machine has two cores
  for (let n = 0; n < count; n++) {
    const [plain] = await Promise.all([person(`testy-pwd-${n}`), person(`testy-totp-${n}`)]);
    await accounts.skipMfaOffer(community.id, plain.accountId);
    passwordOnly.push({ username: plain.username });
    const username = `testy-totp-${n}`;
    const { totpSecret } = await enrolTotp(admin, { community: community.name, username });
    withTotp.push({ username, totpSecret });
  }
  return { passwordOnly, withTotp };
}

/** The scrypt parameters of the accounts' stored hashes, as the note states them. */
async function scryptCost(admin: SignInAdminContext): Promise<string> {
  const { password_hash: hash } = (await admin.db('oauth.accounts').first('password_hash')) as {
    password_hash: string;
  };
  const [, N, r, p] = hash.split('$');
  return `scrypt N=${N}, r=${r}, p=${p}`;
}

export async function signInBenchmarks(): Promise<Comparison[]> {
  const { database, masterKey, community, service } = await benchOauth();
  try {
    const keyring = localKeyring(database.db, masterKey, join(tmpdir(), 'idv-oauth-keys-unused'));
    const admin: SignInAdminContext = {
      db: database.db,
      keyring,
      masterKey,
      operatorsCommunity: 'operators',
      actor: 'bench',
    };
    await setMfaPolicy(admin, { community: community.name, policy: 'optional', factors: [] });
    const web = await createOauthClient(admin, {
      community: community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code'],
      name: 'Testy Bank',
    });
    const secret = `${encodeURIComponent(web.client_id)}:${encodeURIComponent(web.client_secret)}`;
    const client: Client = {
      issuer: `${service.server.url.replace(/\/$/, '')}/community/${community.name}`,
      id: web.client_id,
      basic: `Basic ${Buffer.from(secret).toString('base64')}`,
    };
    const { passwordOnly, withTotp } = await people(
      admin,
      community,
      WARM_UP_LOGINS + ROUNDS * LOGINS_PER_ROUND,
    );
    const password = new Side(passwordOnly);
    const totp = new Side(withTotp);
    for (let i = 0; i < WARM_UP_LOGINS; i++) {
      await password.login(client, false);
      await totp.login(client, false);
    }
    const roundRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const from = [password.ms.length, totp.ms.length] as const;
      for (let i = 0; i < LOGINS_PER_ROUND; i++) {
        // which kind goes first turns every login and every round
        const order = (i + round) % 2 === 0 ? [password, totp] : [totp, password];
        for (const side of order) await side.login(client, true);
      }
      const median = (side: Side, start: number) => percentile(side.ms.slice(start), 0.5);
      roundRatios.push(median(totp, from[1]) / median(password, from[0]));
    }
    const failures = [...password.failures, ...totp.failures];
    if (failures.length)
      throw new Error(`${failures.length} sign-ins failed, the first: ${failures[0]}`);
    return [row(password, totp, roundRatios, await scryptCost(admin))];
  } finally {
    await service.stop();
    await database.drop();
  }
}

/** The table's row: medians as the rates, p95s, each round's ratio, and the goal met or not. */
function row(password: Side, totp: Side, roundRatios: number[], scrypt: string): Comparison {
  const [p50, t50] = [percentile(password.ms, 0.5), percentile(totp.ms, 0.5)];
  const cost = t50 / p50;
  const figures = (ms: number[]) =>
    `p50 ${percentile(ms, 0.5).toFixed(1)} ms, p95 ${percentile(ms, 0.95).toFixed(1)} ms`;
  return {
    suite: 'sign-in with password and TOTP, against password only',
    baseline: { name: `password-only login, p50 ${p50.toFixed(0)} ms`, opsPerSecond: 1000 / p50 },
    candidate: {
      name: `password + TOTP login, p50 ${t50.toFixed(0)} ms`,
      opsPerSecond: 1000 / t50,
    },
    note:
      `whole logins over HTTP to the in-process service, each in a fresh cookie jar from the authorize URL to the token response (${password.flow.requests} requests, forms ${password.flow.forms}, against ${totp.flow.requests}, forms ${totp.flow.forms}), ${scrypt} in both, each login on an account of its own (a TOTP code is good once; the account's data key cold in the service's keyring); ` +
      `password only ${figures(password.ms)}; with TOTP ${figures(totp.ms)}; ${password.ms.length} logins of each, the two taking turns login by login in ${ROUNDS} rounds (ratio of the medians per round ${spreadOf([...roundRatios].sort((a, b) => a - b))}) after ${WARM_UP_LOGINS} of each not counted, 0 failed; ` +
      `cost ${cost.toFixed(2)} x a password-only login's (goal <= ${GOAL} x, ratio >= ${(1 / GOAL).toFixed(2)}): ${cost <= GOAL ? 'met' : 'not met'}; load average ${loadAverage()}`,
  };
}
