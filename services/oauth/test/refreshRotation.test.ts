// Refresh tokens rotate on use; presenting one already rotated away revokes the whole grant,
// including when two presentations race. Through real HTTP: authorize, token, introspect.
import { expect } from 'chai';
import { createOauthClient } from '../src/admin.ts';
import { signProof, startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';

interface TokenAnswer {
  status: number;
  body: { access_token?: string; refresh_token?: string; error?: string };
}

describe('oauth refresh token rotation and reuse detection', () => {
  let oauth: OauthUnderTest;
  let web: { client_id: string; client_secret: string };
  let serviceKeySecret: string;

  const issuer = () => oauth.issuer(oauth.community);
  const basic = () =>
    `Basic ${Buffer.from(`${web.client_id}:${web.client_secret}`).toString('base64')}`;

  async function token(form: Record<string, string>): Promise<TokenAnswer> {
    const res = await fetch(`${issuer()}/v1/token`, {
      method: 'POST',
      headers: { authorization: basic() },
      body: new URLSearchParams(form),
    });
    return { status: res.status, body: (await res.json()) as TokenAnswer['body'] };
  }

  async function active(value: string): Promise<boolean> {
    const res = await fetch(`${issuer()}/v1/introspect`, {
      method: 'POST',
      headers: { authorization: basic() },
      body: new URLSearchParams({ token: value }),
    });
    expect(res.status).to.equal(200);
    return ((await res.json()) as { active: boolean }).active;
  }

  /** A fresh grant: proof, code, token set with a refresh token. */
  async function tokenSet(): Promise<{ access_token: string; refresh_token: string }> {
    const authorize = await fetch(`${issuer()}/v1/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        client_id: web.client_id,
        response_type: 'code',
        scope: 'openid offline_access',
        redirect_uri: REDIRECT,
        proof_of_authentication_jwt: signProof(serviceKeySecret, {
          aud: issuer(),
          sub: oauth.accountId,
        }),
      }),
    });
    const code = new URL(authorize.headers.get('location')!).searchParams.get('code');
    expect(code, authorize.headers.get('location')!).to.be.a('string');
    const answer = await token({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: REDIRECT,
    });
    expect(answer.status).to.equal(200);
    expect(answer.body.refresh_token).to.be.a('string');
    return answer.body as { access_token: string; refresh_token: string };
  }

  before(async () => {
    oauth = await startOauthUnderTest();
    web = await createOauthClient(
      { db: oauth.database.db, keyring: oauth.keyring },
      {
        community: oauth.community.name,
        redirectUris: [REDIRECT],
        grantTypes: ['authorization_code', 'refresh_token'],
      },
    );
    serviceKeySecret = (await oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
  });
  after(() => oauth?.stop());

  it('gives a new refresh token on each refresh', async () => {
    const first = await tokenSet();
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(second.status).to.equal(200);
    expect(second.body.refresh_token).to.be.a('string').and.not.equal(first.refresh_token);
    const third = await token({
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token!,
    });
    expect(third.status).to.equal(200);
    expect(third.body.refresh_token).not.to.equal(second.body.refresh_token);
    expect(await active(third.body.access_token!)).to.equal(true);
  });

  it('revokes the grant when a rotated refresh token is presented again', async () => {
    const first = await tokenSet();
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(second.status).to.equal(200);
    const newRefresh = second.body.refresh_token!;
    expect(newRefresh).not.to.equal(first.refresh_token);

    const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(reuse.status).to.equal(400);
    expect(reuse.body.error).to.equal('invalid_grant');

    // every token of the grant is gone: the thief's and the rightful client's alike
    const afterwards = await token({ grant_type: 'refresh_token', refresh_token: newRefresh });
    expect(afterwards.status).to.equal(400);
    expect(afterwards.body.error).to.equal('invalid_grant');
    expect(await active(first.access_token)).to.equal(false);
    expect(await active(second.body.access_token!)).to.equal(false);
    expect(await active(newRefresh)).to.equal(false);
  });

  it('revokes the grant when two presentations of one refresh token race', async () => {
    const first = await tokenSet();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won.length, JSON.stringify(answers)).to.be.at.most(1);
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect(lost.body.error).to.equal('invalid_grant');
    }
    // whoever won holds nothing that still works
    for (const winner of won) {
      expect(await active(winner.body.access_token!)).to.equal(false);
      const next = await token({
        grant_type: 'refresh_token',
        refresh_token: winner.body.refresh_token!,
      });
      expect(next.body.error).to.equal('invalid_grant');
    }
    expect(await active(first.access_token)).to.equal(false);
  });
});
