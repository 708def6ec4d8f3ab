// Operators (DESIGN 2.5): `operator create` makes an account of the operators community with its
// roles and communities; the community requires a second factor by default, so the first
// sign-in enrols one; the console reads `roles` and `communities` from the ID token (scope
// `operator`), which no other issuer offers.
import { expect } from 'chai';
import * as client from 'openid-client';
import { TenantStore, type Community } from '@idv/platform';
import { createOauthClient } from '../src/admin.ts';
import { createOperator } from '../src/operatorAdmin.ts';
import { expectPage, REDIRECT, SignInWorld, type Place } from './signInWorld.ts';

describe('operators of the operators community', function () {
  this.timeout(90_000);
  let w: SignInWorld;
  let operators: Place;

  before(async () => {
    w = await SignInWorld.start();
    const created = await createOperator(w.admin(), {
      username: 'testy-operator',
      roles: ['reviewer', 'auditor', 'reviewer'],
      communities: [w.oauth.community.id],
      password: 'correct horse battery',
    });
    expect(created).to.deep.include({
      roles: ['reviewer', 'auditor'],
      communities: [w.oauth.community.id],
    });
    const community = (await new TenantStore(w.db).findCommunityByName('operators')) as Community;
    const web = await createOauthClient(w.admin(), {
      community: 'operators',
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code'],
      name: 'Operator console',
      console: true,
    });
    const issuer = w.oauth.issuer(community).replace('//127.0.0.1:', '//localhost:');
    const config = await client.discovery(
      new URL(issuer),
      web.client_id,
      web.client_secret,
      client.ClientSecretBasic(web.client_secret),
      { execute: [client.allowInsecureRequests] },
    );
    operators = { name: community.name, id: community.id, issuer, client: web, config };
  });
  after(() => w?.stop());

  it('signs an operator in with a second factor enrolled on the spot, roles in the ID token', async () => {
    const browser = w.person('192.0.2.60');
    const started = await w.start(operators, browser, { scope: 'openid operator' });
    const enrol = await w.password(browser, started.answer, 'testy-operator');
    // required by default in the operators community: no "not now"
    expectPage(enrol, 'Set up two-step verification');
    expect(enrol.text).not.to.contain('enrol/skip');
    const { page } = await w.enrolTotp(browser, enrol);
    const claims = await started.finish(await w.submit(browser, page, 'continue', {}));
    expect(claims.amr).to.include.members(['pwd', 'otp', 'mfa']);
    expect(claims).to.deep.include({
      roles: ['reviewer', 'auditor'],
      communities: [w.oauth.community.id],
    });
    // what a gateway reads for the operator's token: the same, and when the sign-in happened
    const info = (await (
      await fetch(`${operators.issuer}/v1/userinfo`, {
        headers: { authorization: `Bearer ${started.accessToken!}` },
      })
    ).json()) as Record<string, unknown>;
    expect(info).to.deep.include({
      sub: claims.sub,
      roles: ['reviewer', 'auditor'],
      communities: [w.oauth.community.id],
    });
    expect(info.auth_time).to.equal(claims.auth_time);
  });

  it("grants the operator scope (roles) to the console's client alone", async () => {
    // another client of the operators community: an operator's roles are not for it
    const other = await createOauthClient(w.admin(), {
      community: 'operators',
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code'],
      name: 'Testy reports',
    });
    const authorize = (clientId: string, scope: string) =>
      fetch(
        `${operators.issuer}/v1/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', scope, redirect_uri: REDIRECT, state: 'testy-state', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`,
        { redirect: 'manual' },
      );
    const refused = await authorize(other.client_id, 'openid operator');
    expect(refused.status).to.equal(303);
    expect(new URL(refused.headers.get('location')!).searchParams.get('error')).to.equal(
      'invalid_scope',
    );
    // the same client asking only for what it may: on to the sign-in
    const plain = await authorize(other.client_id, 'openid profile');
    expect(
      new URL(plain.headers.get('location')!, operators.issuer).searchParams.get('error'),
    ).to.equal(null);
    // and the console's client gets it
    const console = await authorize(operators.client.client_id, 'openid operator');
    expect(
      new URL(console.headers.get('location')!, operators.issuer).searchParams.get('error'),
    ).to.equal(null);
    // --console yes is for the operators community only
    const elsewhere = await createOauthClient(w.admin(), {
      community: w.oauth.community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code'],
      console: true,
    }).catch((err: Error) => err.message);
    expect(elsewhere).to.match(/--console yes is for the console's client of operators only/);
  });

  it('offers the operator scope on the operators issuer only', async () => {
    const discovery = async (name: string) =>
      (await (
        await fetch(`${w.oauth.url}/community/${name}/.well-known/openid-configuration`)
      ).json()) as { scopes_supported: string[] };
    expect((await discovery('operators')).scopes_supported).to.include('operator');
    expect((await discovery(w.oauth.community.name)).scopes_supported).not.to.include('operator');
  });

  it('refuses an unknown role, an unknown community and a second operator of the same name', async () => {
    const fails = (input: Parameters<typeof createOperator>[1]) =>
      createOperator(w.admin(), input).then(
        () => 'created',
        (err: Error) => err.message,
      );
    expect(await fails({ username: 'testy-x', roles: ['superuser'], communities: [] })).to.match(
      /--role/,
    );
    expect(await fails({ username: 'testy-x', roles: [], communities: [] })).to.match(/--role/);
    expect(
      await fails({
        username: 'testy-x',
        roles: ['viewer'],
        communities: ['00000000-0000-4000-8000-000000000000'],
      }),
    ).to.match(/does not exist/);
    expect(
      await fails({ username: 'testy-operator', roles: ['viewer'], communities: [] }),
    ).to.match(/exists already/);
  });
});
