// The second-factor store on real PostgreSQL: TOTP's window and replay, recovery codes once each,
// passkeys made and used by a software authenticator, community scope, and removal.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '@idv/db';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import {
  localKeyring,
  platformMigrations,
  TenantStore,
  type Community,
  type Keyring,
} from '@idv/platform';
import { generate } from 'otplib';
import { oauthMigrations } from '../src/migrations.ts';
import { AccountStore } from '../src/store/accountStore.ts';
import { FactorStore, type WebauthnParty } from '../src/store/factorStore.ts';
import { SoftAuthenticator } from './softAuthenticator.ts';

/** 10 s into a 30 s step, so a step either side is a whole step away */
const T0 = Date.UTC(2026, 10, 26, 12, 0, 10);
const PARTY: WebauthnParty = {
  rpID: 'login.example.test',
  rpName: 'Testy Sign-in',
  origin: 'https://login.example.test',
};
const RECOVERY_FORMAT =
  /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{5}-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{5}$/;

describe('oauth second factors (FactorStore)', () => {
  let database: TestDatabase;
  let keyring: Keyring;
  let store: FactorStore;
  let community: Community;
  let other: Community;
  let now = T0;

  const newAccount = async (of = community) => {
    const name = `testy-${randomBytes(4).toString('hex')}`;
    const account = await new AccountStore(database.db).create(
      of.id,
      name,
      'pw-not-used',
      'Testy McTestface',
    );
    return {
      communityId: of.id,
      accountId: account.accountId,
      username: name,
      displayName: 'Testy McTestface',
    };
  };
  /** the code of `secret` at `at` (ms) */
  const codeAt = (secret: string, at: number) => generate({ secret, epoch: Math.floor(at / 1000) });
  /** an account with one TOTP factor enrolled at T0, and its secret */
  const withTotp = async () => {
    const account = await newAccount();
    const secret = store.newTotpSecret();
    now = T0;
    const factor = await store.confirmTotp(
      account.communityId,
      account.accountId,
      secret,
      await codeAt(secret, T0),
      'phone',
    );
    expect(factor).to.not.equal(undefined);
    return { ...account, secret, factorId: factor!.factorId };
  };
  const totpRow = async (factorId: string) =>
    database.db('oauth.account_factors').where({ factor_id: factorId }).first();

  before(async () => {
    database = await createTestDatabase([platformMigrations, oauthMigrations]);
    keyring = localKeyring(database.db, randomBytes(32), join(tmpdir(), 'idv-oauth-keys-unused'));
    store = new FactorStore(database.db, keyring, randomBytes(32), () => now);
    const tenants = new TenantStore(database.db);
    const tenant = await tenants.createTenant(`tenant-${randomBytes(3).toString('hex')}`);
    community = await tenants.createCommunity(tenant.id, `c-${randomBytes(3).toString('hex')}`);
    other = await tenants.createCommunity(tenant.id, `o-${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await database?.drop();
  });

  describe('TOTP', () => {
    it('makes 160-bit base32 secrets and otpauth URIs for them', () => {
      const secret = store.newTotpSecret();
      expect(secret).to.match(/^[A-Z2-7]{32}$/);
      expect(store.newTotpSecret()).to.not.equal(secret);
      const uri = new URL(store.totpUri({ issuer: 'Testy Co', accountName: 'testy', secret }));
      expect(uri.protocol).to.equal('otpauth:');
      expect(uri.host).to.equal('totp');
      expect(uri.searchParams.get('secret')).to.equal(secret);
      expect(uri.searchParams.get('issuer')).to.equal('Testy Co');
    });

    it('seals a pending secret for its account only', async () => {
      const account = await newAccount();
      const secret = store.newTotpSecret();
      const sealed = await store.sealPendingSecret(community.id, account.accountId, secret);
      expect(sealed).to.not.contain(secret);
      expect(await store.openPendingSecret(community.id, account.accountId, sealed)).to.equal(
        secret,
      );
      const someoneElse = await newAccount();
      await store.openPendingSecret(community.id, someoneElse.accountId, sealed).then(
        () => expect.fail('opened under another account'),
        (err: Error) => expect(err).to.be.an('error'),
      );
    });

    it('enrols a secret only with a right code, keeping it sealed and the step used', async () => {
      const account = await newAccount();
      const secret = store.newTotpSecret();
      now = T0;
      const wrong = String((Number(await codeAt(secret, T0)) + 1) % 1_000_000).padStart(6, '0');
      expect(
        await store.confirmTotp(community.id, account.accountId, secret, wrong, 'phone'),
      ).to.equal(undefined);
      expect(await store.list(community.id, account.accountId)).to.deep.equal([]);
      const factor = await store.confirmTotp(
        community.id,
        account.accountId,
        secret,
        await codeAt(secret, T0),
        "Testy's phone",
      );
      expect(factor).to.include({ kind: 'totp', label: "Testy's phone", lastUsedAt: null });
      expect(await store.list(community.id, account.accountId)).to.deep.equal([factor]);
      const row = await totpRow(factor!.factorId);
      expect(row.totp_secret_sealed).to.not.contain(secret);
      expect(row.totp_last_step).to.equal(Math.floor(T0 / 30_000));
      // the code that enrolled it does not sign in too
      expect(
        await store.verifyTotp(community.id, account.accountId, await codeAt(secret, T0)),
      ).to.equal(undefined);
    });

    it('takes the code of the current step and of one step either side, not two', async () => {
      const later = T0 + 10 * 30_000;
      for (const [offset, accepted] of [
        [-60_000, false],
        [60_000, false],
        [-30_000, true],
        [0, true],
        [30_000, true],
      ] as const) {
        const account = await withTotp();
        now = later;
        const result = await store.verifyTotp(
          community.id,
          account.accountId,
          await codeAt(account.secret, later + offset),
        );
        expect(result, `a code ${offset / 1000} s off`).to.deep.equal(
          accepted ? { factorId: account.factorId } : undefined,
        );
      }
    });

    it('takes a code once, and no earlier code after it; marks the factor used', async () => {
      const account = await withTotp();
      now = T0 + 5 * 30_000;
      const code = await codeAt(account.secret, now);
      expect(await store.verifyTotp(community.id, account.accountId, code)).to.deep.equal({
        factorId: account.factorId,
      });
      expect(await store.verifyTotp(community.id, account.accountId, code)).to.equal(undefined);
      const earlier = await codeAt(account.secret, now - 30_000);
      expect(await store.verifyTotp(community.id, account.accountId, earlier)).to.equal(undefined);
      const [factor] = await store.list(community.id, account.accountId);
      expect(factor?.lastUsedAt).to.be.instanceOf(Date);
      now += 30_000;
      expect(
        await store.verifyTotp(community.id, account.accountId, await codeAt(account.secret, now)),
      ).to.not.equal(undefined);
    });

    it('lets exactly one of a code sent several times at once through', async () => {
      const account = await withTotp();
      now = T0 + 3 * 30_000;
      const code = await codeAt(account.secret, now);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => store.verifyTotp(community.id, account.accountId, code)),
      );
      expect(results.filter((r) => r !== undefined)).to.have.length(1);
    });

    it("refuses the code of another account's secret, and reads spaced codes", async () => {
      const account = await withTotp();
      const someoneElse = await withTotp();
      now = T0 + 2 * 30_000;
      const theirs = await codeAt(someoneElse.secret, now);
      const mine = await codeAt(account.secret, now);
      if (theirs !== mine)
        expect(await store.verifyTotp(community.id, account.accountId, theirs)).to.equal(undefined);
      expect(await store.verifyTotp(other.id, account.accountId, mine)).to.equal(undefined);
      const spaced = ` ${mine.slice(0, 3)} ${mine.slice(3)}\n`;
      expect(await store.verifyTotp(community.id, account.accountId, spaced)).to.deep.equal({
        factorId: account.factorId,
      });
    });

    it('refuses a code not six digits without asking the database', async () => {
      // a store whose database cannot be reached: any query would reject
      const unreachable = createDatabase({
        url: 'postgres://postgres@127.0.0.1:1/none',
        acquireTimeoutMs: 200,
      });
      const offline = new FactorStore(unreachable, keyring, randomBytes(32));
      const accountId = (await newAccount()).accountId;
      try {
        for (const code of [
          '',
          '12345',
          '1234567',
          'abcdef',
          '12345a',
          '１２３４５６',
          '1'.repeat(100_000),
        ])
          expect(
            await offline.verifyTotp(community.id, accountId, code),
            code.slice(0, 10),
          ).to.equal(undefined);
        expect(await offline.useRecoveryCode(community.id, accountId, 'OOOOO-00000')).to.equal(
          false,
        );
        expect(
          await offline.verifyWebauthn(PARTY, community.id, undefined, { id: 1 }, 'x'),
        ).to.equal(undefined);
      } finally {
        await unreachable.destroy();
      }
    });
  });

  describe('recovery codes', () => {
    it('makes ten codes of ten unambiguous characters, kept only as HMACs', async () => {
      const account = await newAccount();
      const codes = await store.newRecoveryCodes(community.id, account.accountId);
      expect(codes).to.have.length(10);
      expect(new Set(codes).size).to.equal(10);
      for (const code of codes) expect(code).to.match(RECOVERY_FORMAT);
      expect(await store.recoveryCodesLeft(community.id, account.accountId)).to.equal(10);
      const rows = await database
        .db('oauth.recovery_codes')
        .where({ account_id: account.accountId });
      const stored = rows
        .map((row: { code_hash: Buffer }) => row.code_hash.toString('latin1'))
        .join(' ');
      for (const code of codes) expect(stored).to.not.contain(code.replace('-', ''));
      expect(rows.every((row: { code_hash: Buffer }) => row.code_hash.length === 32)).to.equal(
        true,
      );
    });

    it('takes each code once, however it is typed', async () => {
      const account = await newAccount();
      const [first, second, third] = await store.newRecoveryCodes(community.id, account.accountId);
      expect(await store.useRecoveryCode(community.id, account.accountId, first!)).to.equal(true);
      expect(await store.useRecoveryCode(community.id, account.accountId, first!)).to.equal(false);
      const typed = ` ${second!.toLowerCase().replace('-', ' ')} `;
      expect(await store.useRecoveryCode(community.id, account.accountId, typed)).to.equal(true);
      const undashed = third!.replace('-', '');
      expect(await store.useRecoveryCode(community.id, account.accountId, undashed)).to.equal(true);
      expect(await store.recoveryCodesLeft(community.id, account.accountId)).to.equal(7);
    });

    it('lets exactly one of a code sent several times at once through', async () => {
      const account = await newAccount();
      const [code] = await store.newRecoveryCodes(community.id, account.accountId);
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          store.useRecoveryCode(community.id, account.accountId, code!),
        ),
      );
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('replaces the earlier set with a new one', async () => {
      const account = await newAccount();
      const old = await store.newRecoveryCodes(community.id, account.accountId);
      await store.useRecoveryCode(community.id, account.accountId, old[0]!);
      const [fresh] = await Promise.all([
        store.newRecoveryCodes(community.id, account.accountId),
        store.newRecoveryCodes(community.id, account.accountId),
      ]);
      expect(await store.recoveryCodesLeft(community.id, account.accountId)).to.equal(10);
      expect(await store.useRecoveryCode(community.id, account.accountId, old[1]!)).to.equal(false);
      expect(fresh).to.have.length(10);
    });

    it("refuses another account's code and a code in another community", async () => {
      const account = await newAccount();
      const someoneElse = await newAccount();
      const [code] = await store.newRecoveryCodes(community.id, account.accountId);
      expect(await store.useRecoveryCode(community.id, someoneElse.accountId, code!)).to.equal(
        false,
      );
      expect(await store.useRecoveryCode(other.id, account.accountId, code!)).to.equal(false);
      expect(await store.useRecoveryCode(community.id, account.accountId, code!)).to.equal(true);
    });
  });

  describe('passkeys (WebAuthn)', () => {
    /** an account with a passkey of `authenticator` registered */
    const withPasskey = async (authenticator = new SoftAuthenticator(), of = community) => {
      const account = await newAccount(of);
      const options = await store.registrationOptions(PARTY, account);
      const response = authenticator.register(options, { origin: PARTY.origin });
      const factor = await store.confirmWebauthn(
        PARTY,
        account,
        response,
        options.challenge,
        'laptop',
      );
      expect(factor).to.include({ kind: 'webauthn', label: 'laptop' });
      return { ...account, authenticator, factorId: factor!.factorId };
    };
    /** a sign-in with `passkey`: as its account unless `as` says; accountId null: no username */
    const signIn = async (
      passkey: Awaited<ReturnType<typeof withPasskey>>,
      ceremony: Parameters<SoftAuthenticator['assert']>[1] = { origin: PARTY.origin },
      as: { accountId?: string | null; communityId?: string } = {},
    ) => {
      const accountId = as.accountId === null ? undefined : (as.accountId ?? passkey.accountId);
      const communityId = as.communityId ?? passkey.communityId;
      const named = accountId === undefined ? undefined : { communityId, accountId };
      const options = await store.authenticationOptions(PARTY, named);
      const response = passkey.authenticator.assert(options, ceremony);
      return store.verifyWebauthn(PARTY, communityId, accountId, response, options.challenge);
    };

    it('offers registration options for the account, excluding its passkeys', async () => {
      const account = await newAccount();
      const options = await store.registrationOptions(PARTY, account);
      expect(options.rp).to.deep.equal({ id: PARTY.rpID, name: PARTY.rpName });
      expect(options.user).to.deep.equal({
        id: Buffer.from(account.accountId.replace(/-/g, ''), 'hex').toString('base64url'),
        name: account.username,
        displayName: 'Testy McTestface',
      });
      expect(options.attestation).to.equal('none');
      expect(options.authenticatorSelection).to.include({
        residentKey: 'preferred',
        userVerification: 'preferred',
      });
      expect(options.excludeCredentials).to.deep.equal([]);
      const authenticator = new SoftAuthenticator();
      await store.confirmWebauthn(
        PARTY,
        account,
        authenticator.register(options, { origin: PARTY.origin }),
        options.challenge,
        'key',
      );
      const again = await store.registrationOptions(PARTY, account);
      expect(again.excludeCredentials).to.deep.equal([
        { id: authenticator.id, transports: ['internal'], type: 'public-key' },
      ]);
      expect(again.challenge).to.not.equal(options.challenge);
    });

    it('registers a passkey, then signs in with it', async () => {
      const passkey = await withPasskey();
      expect((await store.list(community.id, passkey.accountId)).map((f) => f.kind)).to.deep.equal([
        'webauthn',
      ]);
      const options = await store.authenticationOptions(PARTY, passkey);
      expect(options.rpId).to.equal(PARTY.rpID);
      expect(options.allowCredentials).to.deep.equal([
        { id: passkey.authenticator.id, transports: ['internal'], type: 'public-key' },
      ]);
      const response = passkey.authenticator.assert(options, { origin: PARTY.origin });
      expect(
        await store.verifyWebauthn(
          PARTY,
          community.id,
          passkey.accountId,
          response,
          options.challenge,
        ),
      ).to.deep.equal({
        accountId: passkey.accountId,
        factorId: passkey.factorId,
        userVerified: true,
      });
      const row = await database
        .db('oauth.account_factors')
        .where({ factor_id: passkey.factorId })
        .first();
      expect(row).to.include({ sign_count: 1, credential_id: passkey.authenticator.id });
      expect(row.last_used_at).to.be.instanceOf(Date);
    });

    it('refuses a registration for another challenge, origin or RP ID, or registered before', async () => {
      const account = await newAccount();
      const options = await store.registrationOptions(PARTY, account);
      const authenticator = new SoftAuthenticator();
      const register = (ceremony: Parameters<SoftAuthenticator['register']>[1]) =>
        store.confirmWebauthn(
          PARTY,
          account,
          authenticator.register(options, ceremony),
          options.challenge,
          'key',
        );
      const cases = {
        challenge: { origin: PARTY.origin, challenge: randomBytes(32).toString('base64url') },
        origin: { origin: 'https://login.example.test.evil.test' },
        rpID: { origin: PARTY.origin, rpId: 'evil.test' },
      };
      for (const [field, ceremony] of Object.entries(cases))
        expect(await register(ceremony), field).to.equal(undefined);
      expect(await store.list(community.id, account.accountId)).to.deep.equal([]);
      expect(await register({ origin: PARTY.origin })).to.not.equal(undefined);
      expect(await register({ origin: PARTY.origin }), 'registered twice').to.equal(undefined);
    });

    it('refuses an assertion for another challenge, origin or RP ID', async () => {
      const passkey = await withPasskey();
      const cases = {
        challenge: { origin: PARTY.origin, challenge: randomBytes(32).toString('base64url') },
        origin: { origin: 'https://evil.test' },
        rpID: { origin: PARTY.origin, rpId: 'evil.test' },
      };
      for (const [field, ceremony] of Object.entries(cases))
        expect(await signIn(passkey, ceremony), field).to.equal(undefined);
      expect(await signIn(passkey)).to.not.equal(undefined);
    });

    it("finds no passkey of another community, nor another account's", async () => {
      const passkey = await withPasskey(new SoftAuthenticator(), other);
      const someoneElse = await newAccount(other);
      expect(
        await signIn(passkey, undefined, { accountId: null, communityId: community.id }),
      ).to.equal(undefined);
      expect(await signIn(passkey, undefined, { communityId: community.id })).to.equal(undefined);
      expect(await signIn(passkey, undefined, { accountId: someoneElse.accountId })).to.equal(
        undefined,
      );
      expect(await signIn(passkey, undefined, { accountId: 'not-a-uuid' })).to.equal(undefined);
      expect(await signIn(passkey)).to.deep.include({ accountId: passkey.accountId });
    });

    it('refuses a sign count that does not grow: a cloned authenticator', async () => {
      const passkey = await withPasskey();
      expect(await signIn(passkey)).to.not.equal(undefined);
      expect(await signIn(passkey)).to.not.equal(undefined);
      expect(await signIn(passkey, { origin: PARTY.origin, signCount: 1 })).to.equal(undefined);
      expect(await signIn(passkey, { origin: PARTY.origin, signCount: 2 })).to.equal(undefined);
      expect(await signIn(passkey, { origin: PARTY.origin, signCount: 7 })).to.not.equal(undefined);
      const row = await database
        .db('oauth.account_factors')
        .where({ factor_id: passkey.factorId })
        .first();
      expect(row.sign_count).to.equal(7);
    });

    it('takes an authenticator that counts nothing (0 every time)', async () => {
      const passkey = await withPasskey(new SoftAuthenticator({ counts: false }));
      expect(await signIn(passkey)).to.not.equal(undefined);
      expect(await signIn(passkey)).to.not.equal(undefined);
    });

    it('lets exactly one of an assertion sent several times at once through', async () => {
      const passkey = await withPasskey();
      const options = await store.authenticationOptions(PARTY, passkey);
      const response = passkey.authenticator.assert(options, { origin: PARTY.origin });
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          store.verifyWebauthn(PARTY, community.id, passkey.accountId, response, options.challenge),
        ),
      );
      expect(results.filter((r) => r !== undefined)).to.have.length(1);
    });

    it('finds the account of a passkey signing in without a username, by its user handle', async () => {
      const passkey = await withPasskey();
      const options = await store.authenticationOptions(PARTY);
      expect(options.allowCredentials).to.deep.equal([]);
      const response = passkey.authenticator.assert(options, { origin: PARTY.origin });
      expect(
        await store.verifyWebauthn(PARTY, community.id, undefined, response, options.challenge),
      ).to.deep.equal({
        accountId: passkey.accountId,
        factorId: passkey.factorId,
        userVerified: true,
      });
      expect(
        await signIn(passkey, { origin: PARTY.origin, userHandle: false }, { accountId: null }),
        'no handle',
      ).to.equal(undefined);
      expect(
        await signIn(passkey, { origin: PARTY.origin, userHandle: false }),
        'a known account',
      ).to.not.equal(undefined);
    });

    it("refuses an assertion whose user handle is not the passkey's account", async () => {
      const passkey = await withPasskey();
      const someoneElse = await newAccount();
      passkey.authenticator.userHandle = Buffer.from(
        someoneElse.accountId.replace(/-/g, ''),
        'hex',
      ).toString('base64url');
      expect(await signIn(passkey, undefined, { accountId: null })).to.equal(undefined);
      expect(await signIn(passkey)).to.equal(undefined);
    });

    it('reports whether the authenticator verified its user (UV)', async () => {
      const passkey = await withPasskey(new SoftAuthenticator({ userVerified: false }));
      expect(await signIn(passkey)).to.deep.include({ userVerified: false });
      expect(await signIn(passkey, { origin: PARTY.origin, userVerified: true })).to.deep.include({
        userVerified: true,
      });
    });

    it('answers undefined to malformed responses, never throws', async () => {
      const passkey = await withPasskey();
      const options = await store.authenticationOptions(PARTY, passkey);
      const good = passkey.authenticator.assert(options, { origin: PARTY.origin });
      const id = passkey.authenticator.id;
      const junk = Buffer.from('not json at all').toString('base64url');
      const shapes: Record<string, unknown> = {
        null: null,
        'a string': 'response',
        'a number': 42,
        'an array': [good],
        'no id': { ...good, id: undefined },
        'id a number': { ...good, id: 1, rawId: 1 },
        'id not base64url': { ...good, id: 'a+b/c=', rawId: 'a+b/c=' },
        'huge id': { ...good, id: 'A'.repeat(2_000_000), rawId: 'A'.repeat(2_000_000) },
        'rawId differs': { ...good, rawId: `${id}A` },
        type: { ...good, type: 'password' },
        'response a string': { ...good, response: 'x' },
        'clientDataJSON an object': { ...good, response: { ...good.response, clientDataJSON: {} } },
        'clientDataJSON not JSON': {
          ...good,
          response: { ...good.response, clientDataJSON: junk },
        },
        'clientDataJSON huge': {
          ...good,
          response: { ...good.response, clientDataJSON: 'A'.repeat(1_000_000) },
        },
        'authenticatorData short': {
          ...good,
          response: { ...good.response, authenticatorData: 'AAAA' },
        },
        'authenticatorData empty': {
          ...good,
          response: { ...good.response, authenticatorData: '' },
        },
        'signature junk': { ...good, response: { ...good.response, signature: junk } },
        'signature an array': { ...good, response: { ...good.response, signature: [1, 2] } },
        'userHandle a number': { ...good, response: { ...good.response, userHandle: 7 } },
        'unknown credential': { ...good, id: `${id}A`, rawId: `${id}A` },
      };
      for (const [field, shape] of Object.entries(shapes)) {
        const result = await store.verifyWebauthn(
          PARTY,
          community.id,
          passkey.accountId,
          shape,
          options.challenge,
        );
        expect(result, field).to.equal(undefined);
        const account = { communityId: community.id, accountId: passkey.accountId };
        expect(
          await store.confirmWebauthn(PARTY, account, shape, options.challenge, 'x'),
          field,
        ).to.equal(undefined);
      }
      expect(
        await store.verifyWebauthn(
          PARTY,
          community.id,
          passkey.accountId,
          good,
          42 as unknown as string,
        ),
      ).to.equal(undefined);
      expect(
        await store.verifyWebauthn(PARTY, community.id, passkey.accountId, good, options.challenge),
      ).to.not.equal(undefined);
    });
  });

  describe('removal', () => {
    it("resets every factor and recovery code of an account, no one else's", async () => {
      const account = await withTotp();
      const options = await store.registrationOptions(PARTY, account);
      await store.confirmWebauthn(
        PARTY,
        account,
        new SoftAuthenticator().register(options, { origin: PARTY.origin }),
        options.challenge,
        'key',
      );
      await store.newRecoveryCodes(community.id, account.accountId);
      const someoneElse = await withTotp();
      await store.newRecoveryCodes(community.id, someoneElse.accountId);
      expect(await store.resetAll(other.id, account.accountId)).to.equal(0);
      expect(await store.resetAll(community.id, account.accountId)).to.equal(2);
      expect(await store.list(community.id, account.accountId)).to.deep.equal([]);
      expect(await store.recoveryCodesLeft(community.id, account.accountId)).to.equal(0);
      expect(await store.list(community.id, someoneElse.accountId)).to.have.length(1);
      expect(await store.recoveryCodesLeft(community.id, someoneElse.accountId)).to.equal(10);
      // in a caller's transaction, it goes with that transaction
      let removed = 0;
      const undo = new Error('undo');
      await database.db
        .transaction(async (trx) => {
          removed = await store.resetAll(community.id, someoneElse.accountId, trx);
          throw undo;
        })
        .catch((err: unknown) => {
          if (err !== undo) throw err;
        });
      expect(removed).to.equal(1);
      expect(await store.list(community.id, someoneElse.accountId)).to.have.length(1);
    });

    it('removes one factor of the account, not of another', async () => {
      const account = await withTotp();
      const someoneElse = await withTotp();
      expect(await store.remove(community.id, someoneElse.accountId, account.factorId)).to.equal(
        false,
      );
      expect(await store.remove(other.id, account.accountId, account.factorId)).to.equal(false);
      expect(await store.remove(community.id, account.accountId, 'not-a-uuid')).to.equal(false);
      expect(await store.remove(community.id, account.accountId, account.factorId)).to.equal(true);
      expect(await store.remove(community.id, account.accountId, account.factorId)).to.equal(false);
      expect(await store.list(community.id, account.accountId)).to.deep.equal([]);
      expect(await store.list(community.id, someoneElse.accountId)).to.have.length(1);
    });
  });
});
