// Discovery behind a TLS proxy: the issuer and every URL it publishes are the public https ones;
// a client choosing a new host each time rebuilds the issuers of the community it names, no other's.
import { expect } from 'chai';
import { startOauthUnderTest, type OauthUnderTest } from './support.ts';

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'id.example.test' };

/** Every URL-valued member of a discovery document (endpoints, jwks_uri, issuer). */
function urlsOf(meta: Record<string, unknown>): [string, string][] {
  return Object.entries(meta).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === 'string' && /^[a-z]+:\/\//.test(entry[1]),
  );
}

describe('oauth discovery behind a TLS proxy', () => {
  const cases: {
    name: string;
    env: Record<string, string>;
    headers: Record<string, string>;
    origin: (oauth: OauthUnderTest) => string;
  }[] = [
    {
      name: 'TRUST_PROXY=true honours X-Forwarded-Proto and X-Forwarded-Host',
      env: { TRUST_PROXY: 'true' },
      headers: FORWARDED,
      origin: () => 'https://id.example.test',
    },
    {
      name: 'OAUTH_PUBLIC_URL wins over the request and its forwarded headers',
      env: { TRUST_PROXY: 'true', OAUTH_PUBLIC_URL: 'https://public.example.test/' },
      headers: FORWARDED,
      origin: () => 'https://public.example.test',
    },
    {
      name: 'without TRUST_PROXY forwarded headers are ignored',
      env: {},
      headers: FORWARDED,
      origin: (oauth) => oauth.url,
    },
  ];

  for (const { name, env, headers, origin } of cases) {
    it(name, async () => {
      const oauth = await startOauthUnderTest(env);
      try {
        const res = await fetch(
          `${oauth.url}/community/${oauth.community.name}/.well-known/openid-configuration`,
          { headers },
        );
        expect(res.status).to.equal(200);
        const meta = (await res.json()) as Record<string, unknown>;
        const issuer = `${origin(oauth)}/community/${oauth.community.name}`;
        expect(meta.issuer).to.equal(issuer);
        const urls = urlsOf(meta);
        expect(urls.map(([key]) => key)).to.include.members([
          'issuer',
          'jwks_uri',
          'token_endpoint',
          'introspection_endpoint',
          'authorization_endpoint',
        ]);
        for (const [key, value] of urls)
          expect(value, key).to.satisfy((v: string) => v.startsWith(`${issuer}/`) || v === issuer);
        // the JWKS answers at the URL the document names, through the same proxy headers
        const path = new URL(String(meta.jwks_uri)).pathname;
        expect((await fetch(`${oauth.url}${path}`, { headers })).status).to.equal(200);
      } finally {
        await oauth.stop();
      }
    });
  }

  it("a client sending a new host each time keeps a few issuers of the community it names, and evicts no other's", async () => {
    const oauth = await startOauthUnderTest({ TRUST_PROXY: 'true' });
    try {
      const discover = (name: string, host: string) =>
        fetch(`${oauth.url}/community/${name}/.well-known/openid-configuration`, {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': host },
        });
      const cached = async () => {
        const text = await (await fetch(`${oauth.url}/metrics`)).text();
        return Number(/^oauth_issuers_cached(?:\{[^}]*\})? (\d+)$/m.exec(text)?.[1]);
      };
      expect((await discover(oauth.other.name, 'id.example.test')).status).to.equal(200);
      for (let i = 0; i < 10; i++) {
        const res = await discover(oauth.community.name, `churn-${i}.example.test`);
        expect(res.status).to.equal(200);
      }
      // names that exist nowhere are not kept either
      for (let i = 0; i < 5; i++)
        expect((await discover(`nobody-${i}`, 'id.example.test')).status).to.equal(404);
      // four origins of the churned community, and the other community's one
      expect(await cached()).to.equal(5);
    } finally {
      await oauth.stop();
    }
  });
});
