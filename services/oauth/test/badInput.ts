// Bad-input cases against a listening oauth service: a request, what it breaks, and the clear
// 4xx it must get. OAuth endpoints answer {error, error_description} as oidc-provider does; the
// authorize endpoint before a redirect_uri is trusted, and our own routes, answer the platform
// body {statusCode, error, message}.
import { request } from 'node:http';
import { expect } from 'chai';
import { createOauthClient } from '../src/admin.ts';
import { startOauthUnderTest, type OauthUnderTest } from './support.ts';

export const REDIRECT = 'https://rp.example.test/callback';
export const FORM = 'application/x-www-form-urlencoded';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http rather than fetch: an answer sent before a huge body is fully written still counts. */
export function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

type Expected =
  | { oauth: string; status: number }
  | { platform: string; status: number }
  | { redirectError: string };

export interface Case {
  breaks: string;
  method?: string;
  /** path below the issuer (/community/{name}), or from the root when it starts with // */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expect: Expected;
  /** what error_description (or message) must say, where the code alone could have other causes */
  says?: RegExp;
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A service with a client_credentials client and a web client of the main community. */
export async function startBadInputWorld() {
  const oauth = await startOauthUnderTest();
  const ctx = { db: oauth.database.db, keyring: oauth.keyring };
  const machine = await createOauthClient(ctx, {
    community: oauth.community.name,
    redirectUris: [],
    grantTypes: ['client_credentials'],
  });
  const web = await createOauthClient(ctx, {
    community: oauth.community.name,
    redirectUris: [REDIRECT],
    grantTypes: ['authorization_code', 'refresh_token'],
  });
  const authorizeForm = (extra: Record<string, string>) =>
    new URLSearchParams({
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      ...extra,
    }).toString();
  return {
    oauth,
    machine,
    web,
    machineAuth: () => basic(machine.client_id, machine.client_secret),
    authorizeForm,
  };
}

export async function checkCase(oauth: OauthUnderTest, c: Case): Promise<void> {
  const url = c.path.startsWith('//')
    ? `${oauth.url}${c.path.slice(1)}`
    : `${oauth.issuer(oauth.community)}${c.path}`;
  const answer = await send(url, c.method ?? 'POST', c.headers ?? {}, c.body);
  const label = `${c.breaks}: ${answer.status} ${answer.text.slice(0, 200)}`;
  if ('redirectError' in c.expect) {
    expect(answer.status, label).to.equal(303);
    const location = new URL(String(answer.headers.location));
    expect(location.origin + location.pathname, label).to.equal(REDIRECT);
    expect(location.searchParams.get('error'), label).to.equal(c.expect.redirectError);
    if (c.says) expect(location.searchParams.get('error_description'), label).to.match(c.says);
    return;
  }
  expect(answer.status, label).to.equal(c.expect.status);
  expect(answer.headers['content-type'], label).to.match(/^application\/json/);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if (c.says) expect(String(body.error_description ?? body.message), label).to.match(c.says);
  if ('oauth' in c.expect) {
    expect(body, label).to.include({ error: c.expect.oauth });
    expect(body.error_description, label).to.be.a('string');
    expect(body, label).not.to.have.property('statusCode');
  } else {
    expect(body, label).to.include({ statusCode: c.expect.status, error: c.expect.platform });
    expect(body.message, label).to.be.a('string');
  }
}
