// Bad input on every form of the sign-in, over plain HTTP: each case names what it breaks and the
// 4xx it must get, with a body, never a 5xx or a hang; unknown interactions; and the pages
// themselves: their headers (CSP), languages, escaping of hostile names, assets and branding.
import { expect } from 'chai';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { enrolTotp, setBranding } from '../src/signInAdmin.ts';
import { send } from './badInput.ts';
import {
  headingOf,
  passkeyOptionsOf,
  type Answer,
  type HttpBrowser,
} from '@idv/testing/httpBrowser';
import { SoftAuthenticator } from './softAuthenticator.ts';
import { expectPage, here, REDIRECT, SignInWorld, type Place } from './signInWorld.ts';

interface Case {
  breaks: string;
  type?: string;
  body: string | (() => Promise<string>);
  status: number;
  says?: RegExp;
}

const HOSTILE = (who: string) => `<script>alert("${who}")</script>`;
const ESCAPED = (who: string) => `&#60;script&#62;alert(&#34;${who}&#34;)&#60;/script&#62;`;

/** The cases every form with `field` shares. */
const common = (field: string): Case[] => [
  {
    breaks: 'content type: JSON, not the form',
    type: 'application/json',
    body: JSON.stringify({ [field]: 'x' }),
    status: 400,
    says: /x-www-form-urlencoded/,
  },
  {
    breaks: 'content type: text/plain',
    type: 'text/plain',
    body: `${field}=x`,
    status: 400,
    says: /x-www-form-urlencoded/,
  },
  {
    breaks: `${field}: given twice`,
    body: `${field}=a&${field}=b`,
    status: 400,
    says: /given more than once/,
  },
  { breaks: 'body: over the 64 KiB limit', body: `${field}=${'7'.repeat(70_000)}`, status: 413 },
];

const credential = (value: unknown) =>
  new URLSearchParams({
    credential: typeof value === 'string' ? value : JSON.stringify(value),
  }).toString();

describe('sign-in forms and pages over HTTP', function () {
  this.timeout(60_000);
  let w: SignInWorld;
  let p: Place;
  let origin: string;
  let passkeyAccount: string;
  const authenticator = new SoftAuthenticator();
  let fresh = 0;

  before(async () => {
    w = await SignInWorld.start();
    p = await w.place('input', { policy: 'optional' });
    origin = new URL(p.issuer).origin;
    await setBranding(w.admin(), { community: p.name, accentColor: '#0B6E4F' });
    // an account with a passkey (made on the enrolment page) and an authenticator app
    passkeyAccount = `testy-input-${fresh++}`;
    const { browser, page } = await enrolling(passkeyAccount);
    const screen = await browser.go(`${here(page)}?screen=passkey`, REDIRECT);
    const codes = await w.submit(browser, screen, 'enrol/passkey', registration(screen));
    expectPage(codes, 'Save your recovery codes');
    await enrolTotp(w.admin(), { community: p.name, username: passkeyAccount });
  });
  after(() => w?.stop());

  /** The registration response of the page's passkey form, its challenge or `challengeOf`'s. */
  function registration(page: Answer, challengeOf = page, made = authenticator) {
    const options = passkeyOptionsOf(page.text)!
      .options as unknown as PublicKeyCredentialCreationOptionsJSON;
    const challenge = (passkeyOptionsOf(challengeOf.text)!.options as { challenge: string })
      .challenge;
    return { credential: JSON.stringify(made.register(options, { origin, challenge })) };
  }

  /** The assertion of the page's passkey form, signed over `challengeOf`'s challenge. */
  function assertion(page: Answer, challengeOf = page, userVerified = true) {
    const options = passkeyOptionsOf(page.text)!
      .options as unknown as PublicKeyCredentialRequestOptionsJSON;
    const challenge = (passkeyOptionsOf(challengeOf.text)!.options as { challenge: string })
      .challenge;
    return JSON.stringify(authenticator.assert(options, { origin, challenge, userVerified }));
  }

  async function atLogin(address = '198.51.100.40') {
    const browser = w.person(address);
    return { browser, page: (await w.start(p, browser)).answer };
  }

  /** A new account at the enrolment page. */
  async function enrolling(username = `testy-input-${fresh++}`) {
    await w.account(p, username);
    const { browser, page } = await atLogin();
    const enrol = await w.password(browser, page, username);
    expectPage(enrol, 'Set up two-step verification');
    return { browser, page: enrol };
  }

  async function atSecondFactor() {
    const { browser, page } = await atLogin();
    const second = await w.password(browser, page, passkeyAccount);
    expectPage(second, 'Two-step verification');
    return { browser, page: second };
  }

  /** Each form, how to reach a sign-in at its step, and what it must refuse. */
  const forms: {
    path: string;
    at: () => Promise<{ browser: HttpBrowser; page: Answer }>;
    cases: () => Promise<Case[]>;
  }[] = [
    {
      path: 'login',
      at: atLogin,
      cases: async () => [
        ...common('password'),
        {
          breaks: 'username and password: 30 000 characters each',
          body: `username=${'u'.repeat(30_000)}&password=${'p'.repeat(30_000)}`,
          status: 401,
          says: /Wrong username or password/,
        },
      ],
    },
    {
      path: 'passkey',
      at: atLogin,
      cases: async () => {
        const other = await atLogin();
        return [
          ...common('credential'),
          ...credentialCases(401, /passkey was not accepted/),
          {
            breaks: 'credential: signed over the challenge of another sign-in',
            body: async () => credential(assertion(other.page)),
            status: 401,
            says: /passkey was not accepted/,
          },
        ];
      },
    },
    {
      path: 'totp',
      at: atSecondFactor,
      cases: async () => [
        ...common('code'),
        {
          breaks: 'code: 60 000 digits',
          body: `code=${'1'.repeat(60_000)}`,
          status: 401,
          says: /code is not right/,
        },
        { breaks: 'code: letters', body: 'code=abcdef', status: 401, says: /code is not right/ },
      ],
    },
    {
      path: 'recovery',
      at: atSecondFactor,
      cases: async () => [
        ...common('recovery_code'),
        {
          breaks: 'recovery_code: 60 000 characters',
          body: `recovery_code=${'A'.repeat(60_000)}`,
          status: 401,
          says: /recovery code is not right/,
        },
      ],
    },
    {
      path: 'second-factor/passkey',
      at: atSecondFactor,
      cases: async () => {
        const other = await atSecondFactor();
        return [
          ...common('credential'),
          ...credentialCases(401, /passkey was not accepted/),
          {
            breaks: 'credential: signed over the challenge of another sign-in',
            body: async () => credential(assertion(other.page)),
            status: 401,
            says: /passkey was not accepted/,
          },
        ];
      },
    },
    {
      path: 'enrol/totp',
      at: async () => {
        const { browser, page } = await enrolling();
        return { browser, page: await browser.go(`${here(page)}?screen=totp`, REDIRECT) };
      },
      cases: async () => [
        ...common('code'),
        {
          breaks: 'code: 60 000 digits',
          body: `code=${'1'.repeat(60_000)}`,
          status: 401,
          says: /code is not right/,
        },
      ],
    },
    {
      path: 'enrol/passkey',
      at: async () => {
        const { browser, page } = await enrolling();
        return { browser, page: await browser.go(`${here(page)}?screen=passkey`, REDIRECT) };
      },
      cases: async () => {
        const other = await enrolling();
        const screen = await other.browser.go(`${here(other.page)}?screen=passkey`, REDIRECT);
        return [
          ...common('credential'),
          ...credentialCases(400, /passkey was not created/),
          {
            breaks: 'credential: made for the challenge of another sign-in',
            body: new URLSearchParams(
              registration(screen, screen, new SoftAuthenticator()),
            ).toString(),
            status: 400,
            says: /passkey was not created/,
          },
        ];
      },
    },
    {
      path: 'enrol/skip',
      at: enrolling,
      cases: async () => common('decision').filter((c) => !c.breaks.includes('twice')),
    },
    {
      path: 'continue',
      at: async () => {
        const { browser, page } = await enrolling();
        return { browser, page: (await w.enrolTotp(browser, page)).page };
      },
      cases: async () => common('decision').filter((c) => !c.breaks.includes('twice')),
    },
    {
      path: 'consent',
      at: async () => {
        const { browser, page } = await enrolling();
        const consent = await w.submit(browser, page, 'enrol/skip', {});
        expectPage(consent, 'Allow access');
        return { browser, page: consent };
      },
      cases: async () => common('decision'),
    },
  ];

  /** A credential that is no WebAuthn response: refused before anything reads it. */
  function credentialCases(refusal: number, says: RegExp): Case[] {
    return [
      { breaks: 'credential: missing', body: 'other=1', status: 400, says: /credential: missing/ },
      {
        breaks: 'credential: not JSON',
        body: credential('{"id": '),
        status: 400,
        says: /not a JSON object/,
      },
      {
        breaks: 'credential: a JSON string',
        body: credential('"text"'),
        status: 400,
        says: /not a JSON object/,
      },
      {
        breaks: 'credential: over 16 KiB',
        body: credential({ id: 'x'.repeat(17_000) }),
        status: 400,
        says: /too long/,
      },
      {
        breaks: 'credential: JSON of another shape',
        body: credential({ id: 7, response: { clientDataJSON: ['x'] } }),
        status: refusal,
        says,
      },
      {
        breaks: 'credential: clientDataJSON not base64 JSON',
        body: credential({
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'public-key',
          response: { clientDataJSON: '%%%', authenticatorData: 'AA', signature: 'AA' },
        }),
        status: refusal,
        says,
      },
    ];
  }

  it('refuses at /passkey a real passkey of the account that did not verify its user (UV=0: one factor)', async () => {
    const { browser, page } = await atLogin();
    const answer = await w.submit(browser, page, 'passkey', {
      credential: assertion(page, page, false),
    });
    expect(answer.status).to.equal(401);
    expect(answer.text).to.match(/passkey was not accepted/);
    // the same passkey, verified, signs in
    const again = await atLogin();
    const signedIn = await w.submit(again.browser, again.page, 'passkey', {
      credential: assertion(again.page),
    });
    expect(signedIn.status).to.be.oneOf([200, 303]);
    expect(signedIn.text ?? '').not.to.match(/passkey was not accepted/);
  });

  for (const form of forms) {
    it(`refuses bad input at /${form.path} with a 4xx and a body`, async () => {
      const { browser, page } = await form.at();
      for (const c of await form.cases()) {
        const body = typeof c.body === 'string' ? c.body : await c.body();
        const answer = await send(
          `${here(page)}/${form.path}`,
          'POST',
          {
            'content-type': c.type ?? 'application/x-www-form-urlencoded',
            cookie: browser.cookiesFor(`${here(page)}/${form.path}`),
          },
          body,
        );
        const label = `${form.path}, ${c.breaks}: ${answer.status} ${answer.text.slice(0, 300)}`;
        expect(answer.status, label).to.equal(c.status);
        expect(answer.text.length, label).to.be.greaterThan(0);
        expect(answer.headers['content-type'], label).to.match(/^(text\/html|application\/json)/);
        if (c.says) expect(answer.text, label).to.match(c.says);
      }
    });
  }

  it('signs in with a passkey whose challenge is its own sign-in’s (the cases above were refused for theirs)', async () => {
    const browser = w.person('198.51.100.45');
    const signIn = await w.start(p, browser);
    const done = await w.submit(browser, signIn.answer, 'passkey', {
      credential: assertion(signIn.answer),
    });
    expect((await signIn.finish(done)).amr).to.deep.equal(['hwk', 'mfa']);
    const other = w.person('198.51.100.46');
    const second = await w.start(p, other);
    const page = await w.password(other, second.answer, passkeyAccount);
    const finished = await w.submit(other, page, 'second-factor/passkey', {
      credential: assertion(page),
    });
    expect((await second.finish(finished)).amr).to.include.members(['pwd', 'hwk', 'mfa']);
  });

  describe('an unknown interaction', () => {
    const path = () => `${p.issuer}/v1/interaction/no-such-sign-in`;

    it('is the expired page for a browser asking for HTML', async () => {
      const answer = await w.person('198.51.100.41').request(path(), {
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect(answer.status).to.equal(400);
      expectPage(answer, 'This sign-in has expired');
    });

    it('is the JSON error body for anyone else, on every form too', async () => {
      const answers = [
        await fetch(path()),
        await fetch(`${path()}/totp`, {
          method: 'POST',
          body: new URLSearchParams({ code: '123456' }),
        }),
        await fetch(`${path()}/login`, {
          method: 'POST',
          body: new URLSearchParams({ username: 'testy', password: 'x' }),
        }),
      ];
      for (const answer of answers) {
        expect(answer.status).to.equal(400);
        const body = (await answer.json()) as Record<string, unknown>;
        expect(body).to.include({ statusCode: 400, error: 'Bad Request' });
        expect(String(body.message)).to.match(/expired or is unknown/);
      }
    });
  });

  describe('pages', () => {
    it('speak Spanish when ui_locales or Accept-Language ask for it, ui_locales first', async () => {
      const spanish = [
        (await w.start(p, w.person('198.51.100.42'), { ui_locales: 'es' })).answer,
        (await w.start(p, w.person('198.51.100.42'), { ui_locales: 'fr es' })).answer,
        (
          await w.start(
            p,
            w.person('198.51.100.42', { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' }),
          )
        ).answer,
      ];
      for (const page of spanish) {
        expectPage(page, 'Iniciar sesión');
        expect(page.text).to.contain('<html lang="es">').and.contain('>Contraseña<');
      }
      const english = await w.start(p, w.person('198.51.100.42', { 'accept-language': 'es' }), {
        ui_locales: 'en',
      });
      expectPage(english.answer, 'Sign in');
    });

    it('name the client and the community', async () => {
      const { page } = await atLogin();
      expect(page.text).to.contain('to continue to <strong>Testy Bank</strong>');
      expect(page.text).to.contain(`<p class="community">${p.name}</p>`);
    });

    it('escape a hostile client name, community name, display name and login_hint', async () => {
      const hostile = await w.place('hostile', {
        policy: 'optional',
        clientName: HOSTILE('client'),
      });
      await setBranding(w.admin(), { community: hostile.name, displayName: HOSTILE('community') });
      await w.account(hostile, 'testy-hostile', HOSTILE('person'));
      const browser = w.person('198.51.100.43');
      const { answer } = await w.start(hostile, browser, { login_hint: `">${HOSTILE('hint')}` });
      const enrol = await w.password(browser, answer, 'testy-hostile');
      const passkey = await browser.go(`${here(enrol)}?screen=passkey`, REDIRECT);
      const totp = await browser.go(`${here(enrol)}?screen=totp`, REDIRECT);
      for (const page of [answer, enrol, passkey, totp])
        expect(page.text, headingOf(page.text)).not.to.match(/<script>alert/);
      expect(answer.text).to.contain(ESCAPED('client')).and.contain(ESCAPED('community'));
      expect(answer.text).to.contain(`value="&#34;&#62;${ESCAPED('hint')}"`);
      const options = passkeyOptionsOf(passkey.text)!.options as { user: { displayName: string } };
      expect(options.user.displayName).to.equal(HOSTILE('person'));
    });

    it('serve their assets for good with nosniff, and nothing else by that path', async () => {
      for (const [file, type] of [
        ['signin.css', 'text/css'],
        ['signin.js', 'text/javascript'],
      ]) {
        const res = await fetch(`${p.issuer}/v1/assets/${file}?v=1`);
        expect(res.status, file).to.equal(200);
        expect(res.headers.get('content-type'), file).to.contain(type);
        expect(res.headers.get('cache-control'), file).to.equal(
          'public, max-age=31536000, immutable',
        );
        expect(res.headers.get('x-content-type-options'), file).to.equal('nosniff');
      }
      for (const file of ['evil.js', '..%2Fstrings.ts', 'signin.css.map']) {
        const res = await fetch(`${p.issuer}/v1/assets/${file}`);
        expect(res.status, file).to.be.oneOf([400, 404]);
        expect(((await res.json()) as { statusCode: number }).statusCode, file).to.equal(
          res.status,
        );
      }
    });

    it('brand with a #rrggbb colour only; no logo is a 404', async () => {
      const css = await fetch(`${p.issuer}/v1/branding.css`);
      expect(css.headers.get('content-type')).to.contain('text/css');
      expect(css.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(await css.text()).to.equal(
        ':root{--accent:#0b6e4f;--accent-text:#ffffff;--accent-ink:#0b6e4f}\n',
      );

      const injected = await w.place('injected');
      await w
        .db('oauth.sign_in_settings')
        .where({ community_id: injected.id })
        .update({ accent_color: 'red}body{background:url(https://evil.example/x)' });
      const refused = await fetch(`${injected.issuer}/v1/branding.css`);
      expect(refused.status).to.equal(200);
      expect(await refused.text()).to.equal('');
      // the page links the issuer's own stylesheets only
      const page = (await w.start(injected, w.person('198.51.100.44'))).answer;
      const sheets = [...page.text.matchAll(/<link rel="stylesheet" href="([^"]*)">/g)];
      expect(sheets.map((m) => m[1]!.split('?')[0])).to.deep.equal([
        `/community/${injected.name}/v1/assets/signin.css`,
        `/community/${injected.name}/v1/branding.css`,
      ]);

      const logo = await fetch(`${p.issuer}/v1/branding/logo`);
      expect(logo.status).to.equal(404);
      expect(await logo.json()).to.include({ statusCode: 404 });
    });

    it('every page shown carries the CSP (nothing inline, forms to the client) and no-store', () => {
      const headings = new Set(w.pages.map((page) => headingOf(page.text)));
      for (const screen of [
        'Sign in',
        'Two-step verification',
        'Set up two-step verification',
        'Add an authenticator app',
        'Create a passkey',
        'Save your recovery codes',
        'Allow access',
        'This sign-in has expired',
      ])
        expect([...headings], screen).to.include(screen);
      for (const page of w.pages) {
        const label = `${page.status} ${page.url} ${headingOf(page.text)}`;
        const csp = page.headers.get('content-security-policy') ?? '';
        expect(csp, label).to.contain("default-src 'none'").and.contain("script-src 'self'");
        expect(csp, label).not.to.contain('unsafe-inline');
        const formAction = /form-action ([^;]*)/.exec(csp)?.[1]?.split(' ');
        const expired = headingOf(page.text) === 'This sign-in has expired';
        expect(formAction, label).to.include.members(
          expired ? ["'self'"] : ["'self'", 'https://rp.example.test'],
        );
        expect(page.headers.get('cache-control'), label).to.equal('no-store');
        expect(page.headers.get('x-content-type-options'), label).to.equal('nosniff');
        expect(page.headers.get('x-frame-options'), label).to.equal('DENY');
      }
    });
  });
});
