// The admin CLI's sign-in commands as operators run them (DESIGN 2.6): a real process, JSON on
// stdout, against a fresh database; what each changes is read back through the oauth stores, and
// every action on an account leaves an audit row with ids only.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generate } from 'otplib';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { localKeyring, platformMigrations } from '@idv/platform';
import { DEFAULT_LOGIN_LIMITS, LoginThrottle } from '../../oauth/src/login/throttle.ts';
import { oauthMigrations } from '../../oauth/src/migrations.ts';
import { AccountStore } from '../../oauth/src/store/accountStore.ts';
import { FactorStore } from '../../oauth/src/store/factorStore.ts';

const run = promisify(execFile);
const MAIN = new URL('../src/main.ts', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
/** a 1x1 PNG */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

interface Outcome {
  code: number;
  json: Record<string, unknown>;
}

describe('admin CLI: sign-in commands', function () {
  this.timeout(90_000);
  let t: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let masterKey: Buffer;
  let files: string;
  let communityId: string;
  const community = `signin-${randomBytes(3).toString('hex')}`;

  const admin = async (...args: string[]): Promise<Outcome> => {
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', MAIN, ...args], { env });
      return { code: 0, json: JSON.parse(stdout) as Record<string, unknown> };
    } catch (err) {
      const failure = err as { code: number; stderr: string };
      const line = failure.stderr.trim().split('\n').pop() ?? '{}';
      return { code: failure.code, json: JSON.parse(line) as Record<string, unknown> };
    }
  };

  const macKey = (purpose: string) => createHmac('sha256', masterKey).update(purpose).digest();
  const accounts = () => new AccountStore(t.db);
  const factors = () =>
    new FactorStore(
      t.db,
      localKeyring(t.db, masterKey, join(files, 'keys')),
      macKey('oauth-recovery-codes'),
    );
  const auditOf = (accountId: string) =>
    t
      .db('platform.audit_log')
      .where({ subject_kind: 'oauth-account', subject_id: accountId })
      .orderBy('id')
      .select('actor', 'action', 'community_id', 'details');

  async function account(username: string) {
    const created = await admin(
      'oauth-account',
      'create',
      '--community',
      community,
      '--username',
      username,
      '--password',
      PASSWORD,
    );
    expect(created.code, JSON.stringify(created.json)).to.equal(0);
    return String(created.json.accountId);
  }

  before(async () => {
    t = await createTestDatabase([platformMigrations, oauthMigrations]);
    masterKey = randomBytes(32);
    files = mkdtempSync(join(tmpdir(), 'idv-signin-cli-'));
    env = {
      ...process.env,
      DATABASE_URL: t.url,
      MASTER_KEY: masterKey.toString('base64'),
      IDV_ADMIN_ACTOR: 'testy-operator',
    };
    const tenant = await admin('tenant', 'create', '--name', 'Sign-in Tenant');
    const created = await admin(
      'community',
      'create',
      '--tenant',
      String(tenant.json.id),
      '--name',
      community,
    );
    communityId = String(created.json.id);
  });
  after(async () => {
    rmSync(files, { recursive: true, force: true });
    await t?.drop();
  });

  it('names a client at creation (client_name) and renames it', async () => {
    const created = await admin(
      'oauth-client',
      'create',
      '--community',
      community,
      '--redirect-uri',
      'https://rp.example.test/cb',
      '--name',
      'Testy Bank',
    );
    expect(created.code).to.equal(0);
    expect(created.json).to.have.all.keys('client_id', 'client_secret');
    const metadata = async () =>
      (
        (await t
          .db('oauth.clients')
          .where({ client_id: created.json.client_id })
          .first('metadata')) as { metadata: { client_name?: string } }
      ).metadata;
    expect((await metadata()).client_name).to.equal('Testy Bank');
    const renamed = await admin(
      'oauth-client',
      'name',
      '--community',
      community,
      '--client-id',
      String(created.json.client_id),
      '--name',
      'Testy Credit',
    );
    expect(renamed).to.deep.equal({
      code: 0,
      json: { client_id: created.json.client_id, client_name: 'Testy Credit' },
    });
    expect((await metadata()).client_name).to.equal('Testy Credit');
  });

  it('sets the second-factor policy of a community', async () => {
    const required = await admin(
      'community',
      'mfa',
      '--community',
      community,
      '--policy',
      'required',
    );
    expect(required.code).to.equal(0);
    expect(required.json).to.deep.include({ community, policy: 'required' });
    const totpOnly = await admin(
      'community',
      'mfa',
      '--community',
      community,
      '--policy',
      'optional',
      '--factor',
      'totp',
    );
    expect(totpOnly.json).to.deep.include({ community, policy: 'optional', factors: ['totp'] });
    const row = await t.db('oauth.sign_in_settings').where({ community_id: communityId }).first();
    expect(row).to.include({ mfa_policy: 'optional' });
    expect(row.mfa_factors).to.deep.equal(['totp']);
  });

  it('sets login limits, and back to the defaults', async () => {
    const set = await admin(
      'community',
      'login-limits',
      '--community',
      community,
      '--lock-after',
      '5',
      '--lock-minutes',
      '30',
    );
    expect(set.code).to.equal(0);
    expect(set.json).to.deep.equal({
      community,
      limits: { ...DEFAULT_LOGIN_LIMITS, lockAfter: 5, lockMinutes: 30 },
    });
    const reset = await admin(
      'community',
      'login-limits',
      '--community',
      community,
      '--defaults',
      'yes',
    );
    expect(reset.json).to.deep.equal({ community, limits: DEFAULT_LOGIN_LIMITS });
  });

  it('brands the sign-in page: name, #rrggbb colour, an image logo', async () => {
    const logo = join(files, 'logo.png');
    writeFileSync(logo, PNG);
    const branded = await admin(
      'community',
      'branding',
      '--community',
      community,
      '--display-name',
      'Testy Credit Union',
      '--accent-color',
      '#0B6E4F',
      '--logo',
      logo,
    );
    expect(branded).to.deep.equal({
      code: 0,
      json: { community, displayName: 'Testy Credit Union', accentColor: '#0b6e4f', logo: true },
    });
    const removed = await admin('community', 'branding', '--community', community, '--logo', '');
    expect(removed.json).to.include({ logo: false });
  });

  it('refuses bad sign-in settings with exit 2 and a JSON error', async () => {
    const text = join(files, 'logo.txt');
    writeFileSync(text, 'not an image, just text pretending\n');
    const big = join(files, 'big.png');
    writeFileSync(big, Buffer.concat([PNG, Buffer.alloc(70 * 1024)]));
    const refusals: [string, string[], RegExp][] = [
      [
        'a bad policy',
        ['community', 'mfa', '--community', community, '--policy', 'sometimes'],
        /--policy must be one of off, optional, required/,
      ],
      [
        'a bad factor',
        ['community', 'mfa', '--community', community, '--policy', 'required', '--factor', 'sms'],
        /--factor must be one of totp, webauthn/,
      ],
      [
        'a lock after 0 failures',
        ['community', 'login-limits', '--community', community, '--lock-after', '0'],
        /lockAfter must be an integer from 1 to 1000/,
      ],
      [
        'a limit not a number',
        ['community', 'login-limits', '--community', community, '--lock-minutes', 'soon'],
        /lockMinutes must be an integer/,
      ],
      [
        'a fractional limit',
        ['community', 'login-limits', '--community', community, '--base-delay-seconds', '1.5'],
        /baseDelaySeconds must be an integer/,
      ],
      [
        'a lock before the free failures end',
        [
          'community',
          'login-limits',
          '--community',
          community,
          '--free-failures',
          '5',
          '--lock-after',
          '3',
        ],
        /lockAfter \(3\) must be greater than freeFailures \(5\)/,
      ],
      [
        'a logo that is no image',
        ['community', 'branding', '--community', community, '--logo', text],
        /--logo must be a PNG, JPEG or WebP file/,
      ],
      [
        'a logo over 64 KiB',
        ['community', 'branding', '--community', community, '--logo', big],
        /--logo must be at most 64 KiB/,
      ],
      [
        'a colour that is no #rrggbb',
        ['community', 'branding', '--community', community, '--accent-color', 'red;}'],
        /--accent-color must be #rrggbb/,
      ],
      [
        'a client name with a control character',
        [
          'oauth-client',
          'create',
          '--community',
          community,
          '--redirect-uri',
          'https://rp.example.test/cb',
          '--name',
          'Testy\u0007Bank',
        ],
        /--name must be 1 to 100 printable characters/,
      ],
      [
        'a client name over 100 characters',
        [
          'oauth-client',
          'create',
          '--community',
          community,
          '--redirect-uri',
          'https://rp.example.test/cb',
          '--name',
          'n'.repeat(101),
        ],
        /--name must be 1 to 100/,
      ],
      [
        'a short new password',
        [
          'oauth-account',
          'reset-password',
          '--community',
          community,
          '--username',
          'anyone',
          '--password',
          'short',
        ],
        /at least 8 characters/,
      ],
    ];
    const outcomes = await Promise.all(refusals.map(([, args]) => admin(...args)));
    refusals.forEach(([what, , message], i) => {
      expect(outcomes[i]!.code, what).to.equal(2);
      expect(String(outcomes[i]!.json.error), what).to.match(message);
    });
    // nothing of the refusals was kept
    const row = await t.db('oauth.sign_in_settings').where({ community_id: communityId }).first();
    expect(row).to.include({ mfa_policy: 'optional', accent_color: '#0b6e4f', limits: null });
  });

  it('refuses an account action on an account or community that does not exist with exit 1', async () => {
    const actions = ['unlock', 'reset-password', 'reset-factors', 'enrol-totp'];
    const outcomes = await Promise.all([
      ...actions.map((action) =>
        admin('oauth-account', action, '--community', community, '--username', 'testy-nobody'),
      ),
      admin('oauth-account', 'unlock', '--community', 'no-such-community', '--username', 'testy'),
      admin('community', 'mfa', '--community', 'no-such-community', '--policy', 'off'),
    ]);
    for (const outcome of outcomes) {
      expect(outcome.code, JSON.stringify(outcome.json)).to.equal(1);
      expect(String(outcome.json.error)).to.match(/does not exist|no account testy-nobody/);
    }
  });

  it('unlocks an account locked from an address, and says whether it was', async () => {
    const accountId = await account('testy-locked');
    const throttle = new LoginThrottle(t.db, macKey('oauth-login-throttle'));
    const limits = { ...DEFAULT_LOGIN_LIMITS, baseDelaySeconds: 0, freeFailures: 1, lockAfter: 2 };
    const attempt = () => throttle.begin(communityId, 'testy-locked', '203.0.113.7', limits);
    for (let n = 0; n < 2; n++) {
      const verdict = await attempt();
      if (verdict.allowed) await throttle.failed(verdict.attempt);
    }
    expect(await attempt()).to.include({ allowed: false, reason: 'locked' });

    const unlocked = await admin(
      'oauth-account',
      'unlock',
      '--community',
      community,
      '--username',
      'testy-locked',
    );
    expect(unlocked).to.deep.equal({ code: 0, json: { unlocked: true, wasLocked: true } });
    expect(await attempt()).to.include({ allowed: true });
    const again = await admin(
      'oauth-account',
      'unlock',
      '--community',
      community,
      '--username',
      'testy-locked',
    );
    expect(again.json).to.deep.equal({ unlocked: true, wasLocked: false });
    const row = {
      actor: 'admin-cli:testy-operator',
      action: 'oauth.account.unlocked',
      community_id: communityId,
    };
    expect(await auditOf(accountId)).to.deep.equal([
      { ...row, details: { wasLocked: true } },
      { ...row, details: { wasLocked: false } },
    ]);
  });

  it('resets a password: the generated one signs in, the old one does not', async () => {
    const accountId = await account('testy-reset');
    const reset = await admin(
      'oauth-account',
      'reset-password',
      '--community',
      community,
      '--username',
      'testy-reset',
    );
    expect(reset.code).to.equal(0);
    expect(reset.json).to.include({ username: 'testy-reset' });
    const generated = String(reset.json.password);
    expect(generated.length).to.be.at.least(16);
    expect(await accounts().authenticate(communityId, 'testy-reset', generated)).to.include({
      accountId,
    });
    expect(await accounts().authenticate(communityId, 'testy-reset', PASSWORD)).to.equal(undefined);
    expect((await accounts().find(communityId, accountId))?.credentialsChangedAt).to.be.instanceOf(
      Date,
    );
    const audit = await auditOf(accountId);
    expect(audit).to.have.length(1);
    expect(audit[0]).to.deep.include({
      actor: 'admin-cli:testy-operator',
      action: 'oauth.account.password_reset',
    });
    expect(JSON.stringify(audit)).not.to.contain(generated).and.not.to.contain('testy-reset');
  });

  it('enrols TOTP (its secret makes working codes) and resets the factors', async () => {
    const accountId = await account('testy-factors');
    const enrolled = await admin(
      'oauth-account',
      'enrol-totp',
      '--community',
      community,
      '--username',
      'testy-factors',
    );
    expect(enrolled.code).to.equal(0);
    expect(enrolled.json).to.have.all.keys('username', 'factorId', 'totpSecret');
    const secret = String(enrolled.json.totpSecret);
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    const code = await generate({ secret });
    expect(await factors().verifyTotp(communityId, accountId, code)).to.deep.equal({
      factorId: enrolled.json.factorId,
    });
    await factors().newRecoveryCodes(communityId, accountId);

    const reset = await admin(
      'oauth-account',
      'reset-factors',
      '--community',
      community,
      '--username',
      'testy-factors',
    );
    expect(reset.code).to.equal(0);
    expect(reset.json).to.include({ username: 'testy-factors', factorsRemoved: 1 });
    expect(await factors().list(communityId, accountId)).to.deep.equal([]);
    expect(await factors().recoveryCodesLeft(communityId, accountId)).to.equal(0);
    expect((await accounts().find(communityId, accountId))?.credentialsChangedAt).to.be.instanceOf(
      Date,
    );

    const audit = await auditOf(accountId);
    expect(audit.map((row: { action: string }) => row.action)).to.deep.equal([
      'oauth.account.totp_enrolled',
      'oauth.account.factors_reset',
    ]);
    for (const row of audit)
      expect(row).to.include({ actor: 'admin-cli:testy-operator', community_id: communityId });
    const details = JSON.stringify(audit);
    expect(details).not.to.contain('testy-factors').and.not.to.contain(secret);
  });
});
