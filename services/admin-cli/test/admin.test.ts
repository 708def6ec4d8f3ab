// The admin CLI as operators run it: a real process, JSON on stdout, against a fresh database.
import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { LicenceStore, localKeyring, platformMigrations } from '@idv/platform';
import { softHsmToken } from '@idv/testing/softhsm';
import { oauthMigrations } from '../../oauth/src/migrations.ts';
import { AccountStore } from '../../oauth/src/store/accountStore.ts';

const run = promisify(execFile);
const MAIN = new URL('../src/main.ts', import.meta.url).pathname;

interface Outcome {
  code: number;
  json: Record<string, unknown>;
}

describe('admin CLI', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let env: NodeJS.ProcessEnv;

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

  before(async () => {
    t = await createTestDatabase([platformMigrations, oauthMigrations]);
    env = { ...process.env, DATABASE_URL: t.url, MASTER_KEY: randomBytes(32).toString('base64') };
  });
  after(async () => t?.drop());

  it('creates a tenant, a community and licences that the licence store accepts', async () => {
    const tenant = await admin('tenant', 'create', '--name', 'Example Fintech');
    expect(tenant.code).to.equal(0);
    expect(tenant.json).to.have.all.keys('id', 'name');

    const community = await admin(
      'community',
      'create',
      '--tenant',
      String(tenant.json.id),
      '--name',
      'retail',
    );
    expect(community.json).to.deep.include({ name: 'retail', tenantId: tenant.json.id });

    const licence = await admin(
      'license',
      'create',
      '--level',
      'service',
      '--community',
      String(community.json.id),
      '--expires',
      '2099-01-01T00:00:00Z',
    );
    expect(licence.json).to.have.all.keys('licenseKey', 'level', 'communities', 'expiresAt');
    expect(licence.json).to.deep.include({
      level: 'service',
      communities: [community.json.id],
      expiresAt: '2099-01-01T00:00:00.000Z',
    });
    const verdict = await new LicenceStore(t.db, 0).check(String(licence.json.licenseKey));
    expect(verdict.ok).to.equal(true);

    const system = await admin('license', 'create', '--level', 'system');
    expect(system.json).to.deep.include({ level: 'system', communities: [], expiresAt: null });
  });

  it('shows the same service key every time and keeps its secret sealed in the database', async () => {
    const first = await admin('servicekey', 'show', '--service', 'docverify');
    const second = await admin('servicekey', 'show', '--service', 'docverify');
    expect(first.json).to.have.all.keys('keyId', 'keySecret', 'tag', 'type');
    expect(second.json).to.deep.equal(first.json);
    const rows = JSON.stringify(await t.db('platform.service_keys').select());
    expect(rows).not.to.contain(String(first.json.keySecret));
  });

  const refusals: [string, string[], number, RegExp][] = [
    ['an unknown command', ['tenant', 'explode'], 2, /unknown command/],
    ['a missing option', ['tenant', 'create'], 2, /--name is required/],
    ['a bad level', ['license', 'create', '--level', 'root'], 2, /--level must be one of/],
    [
      'a service licence without community',
      ['license', 'create', '--level', 'service'],
      2,
      /needs at least one --community/,
    ],
    [
      'an unknown community',
      ['license', 'create', '--level', 'service', '--community', 'nope'],
      1,
      /does not exist/,
    ],
    [
      'a bad expiry',
      ['license', 'create', '--level', 'system', '--expires', 'soon'],
      2,
      /ISO date/,
    ],
    [
      'an unknown tenant',
      ['community', 'create', '--tenant', '00000000-0000-0000-0000-000000000000', '--name', 'x'],
      1,
      /does not exist/,
    ],
    [
      'a bad community name',
      ['community', 'create', '--tenant', 'x', '--name', 'has space'],
      2,
      /letters, digits/,
    ],
    [
      'a community name shaped like an id',
      ['community', 'create', '--tenant', 'x', '--name', '0b9a1c2d-1111-2222-3333-444455556666'],
      2,
      /shaped like an id/,
    ],
    [
      'an unknown service',
      ['servicekey', 'show', '--service', 'mail'],
      2,
      /--service must be one of/,
    ],
    [
      'an oauth-client for an unknown community',
      ['oauth-client', 'create', '--community', 'nope', '--redirect-uri', 'https://x.test/cb'],
      1,
      /does not exist/,
    ],
    [
      'an oauth-client with a bad grant type',
      ['oauth-client', 'create', '--community', 'c', '--grant-type', 'password'],
      2,
      /--grant-type must be one of/,
    ],
  ];
  for (const [name, args, code, message] of refusals) {
    it(`refuses ${name} with exit ${code} and a JSON error`, async () => {
      const outcome = await admin(...args);
      expect(outcome.code).to.equal(code);
      expect(String(outcome.json.error)).to.match(message);
    });
  }

  it('creates an oauth client whose secret is sealed at rest', async () => {
    const tenant = await admin('tenant', 'create', '--name', 'OAuth Tenant');
    await admin('community', 'create', '--tenant', String(tenant.json.id), '--name', 'oidc-c');
    const created = await admin(
      'oauth-client',
      'create',
      '--community',
      'oidc-c',
      '--redirect-uri',
      'https://rp.example.test/cb',
      '--grant-type',
      'authorization_code',
      '--grant-type',
      'refresh_token',
    );
    expect(created.code).to.equal(0);
    expect(created.json).to.have.all.keys('client_id', 'client_secret');
    const rows = JSON.stringify(await t.db('oauth.clients').select());
    expect(rows).to.contain(String(created.json.client_id));
    expect(rows).not.to.contain(String(created.json.client_secret));
  });

  /** The CLI with `input` on its standard input, as `printf ... | npm run -s admin -- ...`. */
  const adminWithStdin = (input: string, ...args: string[]) =>
    new Promise<Outcome>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        const line = code === 0 ? stdout : (stderr.trim().split('\n').pop() ?? '{}');
        resolve({ code: code ?? -1, json: JSON.parse(line) as Record<string, unknown> });
      });
      child.stdin.end(input);
    });

  it('takes an account password from standard input with --password -', async () => {
    const tenant = await admin('tenant', 'create', '--name', 'Stdin Tenant');
    const community = await admin(
      'community',
      'create',
      '--tenant',
      String(tenant.json.id),
      '--name',
      'stdin-c',
    );
    const args = ['oauth-account', 'create', '--community', 'stdin-c', '--username', 'testy'];
    const created = await adminWithStdin('correct horse battery\n', ...args, '--password', '-');
    expect(created.code).to.equal(0);
    const accounts = new AccountStore(t.db);
    const communityId = String(community.json.id);
    expect(await accounts.authenticate(communityId, 'testy', 'correct horse battery')).to.not.equal(
      undefined,
    );
    expect(await accounts.authenticate(communityId, 'testy', '-')).to.equal(undefined);

    const empty = await adminWithStdin('', ...args.slice(0, -1), 'nobody', '--password', '-');
    expect(empty.code).to.equal(2);
    expect(String(empty.json.error)).to.match(/read nothing from standard input/);
  });

  it('refuses a duplicate tenant name', async () => {
    await admin('tenant', 'create', '--name', 'Twin Tenant');
    const again = await admin('tenant', 'create', '--name', 'Twin Tenant');
    expect(again.code).to.equal(1);
    expect(String(again.json.error)).to.match(/already exists/);
  });

  it('rotates the master key, shows each key with what is under it, and retires only an unused one', async function () {
    // nine CLI processes, each ~3 s to start on a quiet machine: a busy one needs the room
    this.timeout(150_000);
    const keysDir = mkdtempSync(join(tmpdir(), 'idv-admin-keys-'));
    const saved = env;
    env = { ...env, MASTER_KEYS_DIR: keysDir };
    try {
      const keyring = localKeyring(t.db, Buffer.from(env.MASTER_KEY!, 'base64'), keysDir);
      const initial = await admin('master-key', 'status');
      expect(initial.code).to.equal(0);
      const first = String((initial.json as { current: string }).current);
      for (let i = 0; i < 3; i++) await keyring.newDataKey({ kind: 'session', id: `s${i}` });
      // with the service key and the oauth client of the tests before
      const dataKeys = Number((await t.db('keys.data_keys').count({ n: '*' }).first())!.n);
      expect(dataKeys).to.be.at.least(3);
      const rotated = await admin('master-key', 'rotate');
      expect(rotated.code).to.equal(0);
      expect(rotated.json).to.have.all.keys('keyId', 'rewrapped');
      expect(rotated.json.rewrapped).to.equal(dataKeys);
      expect(readdirSync(keysDir)).to.deep.equal([`${String(rotated.json.keyId)}.key`]);
      const status = await admin('master-key', 'status');
      expect(status.json).to.deep.equal({
        current: rotated.json.keyId,
        keys: [
          { keyId: first, state: 'active', values: 0 },
          { keyId: rotated.json.keyId, state: 'current', values: dataKeys },
        ],
      });
      // the current key is refused; MASTER_KEY's, with no value sealed under it alone nor wrapped
      // under it any more, retires
      const refused = await admin('master-key', 'retire', '--key-id', String(rotated.json.keyId));
      expect(refused.code).to.equal(1);
      expect(String(refused.json.error)).to.contain('is the current key');
      expect((await admin('master-key', 'retire', '--key-id', first)).code).to.equal(0);
      const second = await admin('master-key', 'rotate');
      const retired = await admin('master-key', 'retire', '--key-id', String(rotated.json.keyId));
      expect(retired).to.deep.equal({
        code: 0,
        json: { keyId: rotated.json.keyId, retired: true },
      });
      expect((await admin('master-key', 'status')).json.current).to.equal(second.json.keyId);
      expect((await admin('master-key', 'retire')).code).to.equal(2);
    } finally {
      env = saved;
      rmSync(keysDir, { recursive: true, force: true });
    }
  });

  it('moves the keystore into a PKCS#11 token with KEY_PROVIDER=pkcs11: one rotation re-wraps what the local keys wrapped', async () => {
    const token = softHsmToken();
    // a database of its own, whose keystore starts under local keys (MASTER_KEY's)
    const own = await createTestDatabase([platformMigrations, oauthMigrations]);
    const keysDir = mkdtempSync(join(tmpdir(), 'idv-admin-hsm-'));
    const local = { ...env, DATABASE_URL: own.url, MASTER_KEYS_DIR: keysDir };
    const hsm = {
      ...local,
      KEY_PROVIDER: 'pkcs11',
      PKCS11_TOKEN_LABEL: token.tokenLabel,
      PKCS11_PIN: token.pin,
      SOFTHSM2_CONF: token.conf,
    };
    const saved = env;
    try {
      env = local;
      const before = await admin('servicekey', 'show', '--service', 'oauth');
      expect(before.code).to.equal(0);
      env = hsm;
      // the keystore of this database is under local keys already: a key of the token made current
      const added = await admin('master-key', 'rotate', '--key-id', 'pkcs11-initial');
      expect(added.code, JSON.stringify(added.json)).to.equal(0);
      expect(added.json.keyId).to.equal('pkcs11-initial');
      const status = await admin('master-key', 'status');
      expect(status.json.current).to.equal('pkcs11-initial');
      const keys = (status.json as { keys: { keyId: string; values: number }[] }).keys;
      expect(keys.filter((k) => k.keyId !== 'pkcs11-initial').map((k) => k.values)).to.satisfy(
        (v: number[]) => v.every((n) => n === 0),
      );
      // a new key made inside the token, and an unknown one refused
      const rotated = await admin('master-key', 'rotate');
      expect(String(rotated.json.keyId)).to.match(/^pkcs11-[0-9a-f]{16}$/);
      expect(
        (await admin('master-key', 'rotate', '--key-id', 'pkcs11-0000000000000000')).code,
      ).to.equal(1);
      // an oauth client's secret sealed under a data key wrapped by the token
      const tenant = await admin('tenant', 'create', '--name', 'HSM Tenant');
      await admin('community', 'create', '--tenant', String(tenant.json.id), '--name', 'hsm');
      const client = await admin(
        'oauth-client',
        'create',
        '--community',
        'hsm',
        '--redirect-uri',
        'https://example.com/cb',
      );
      expect(client.code, JSON.stringify(client.json)).to.equal(0);
      const row = await own
        .db('keys.data_keys')
        .where({ owner_kind: 'oauth-client', owner_id: client.json.client_id })
        .first();
      expect(row.kek_id).to.equal(rotated.json.keyId);
      // the service key made under the local key opens after the move
      expect((await admin('servicekey', 'show', '--service', 'oauth')).json).to.deep.equal(
        before.json,
      );
      // without the PIN: a clear refusal
      env = { ...hsm, PKCS11_PIN: '' };
      const noPin = await admin('master-key', 'status');
      expect(noPin.code).to.equal(1);
      expect(String(noPin.json.error)).to.contain('PKCS11_PIN');
    } finally {
      env = saved;
      token.remove();
      rmSync(keysDir, { recursive: true, force: true });
      await own.drop();
    }
  });
});
