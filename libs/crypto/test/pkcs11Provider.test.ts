// The PKCS#11 key provider against a SoftHSM2 token of this suite's own (its own SOFTHSM2_CONF and
// token directory, never the system's): data keys wrapped in the token and bound to both ids,
// KEKs that cannot be read out, keys found by other processes, a session the token dropped
// replaced, and a Keyring over it from first data key to rotation, re-wrap and status.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { Keyring, platformMigrations } from '@idv/platform';
import { DecryptError, UnknownKeyError } from '../src/index.ts';
import { Pkcs11KeyProvider, type Pkcs11Options } from '../src/pkcs11Provider.ts';
import { SOFTHSM_MODULE, softHsmToken, type SoftHsmToken } from '@idv/testing/softhsm';

const PROVIDER_URL = pathToFileURL(join(import.meta.dirname, '../src/pkcs11Provider.ts')).href;
const rejection = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (err: unknown) => err,
  );

/** What another process sees: it opens the token, unwraps what it is given and wraps a key. */
const OTHER_PROCESS = `
  const { Pkcs11KeyProvider } = await import(process.env.PROVIDER_URL);
  const job = JSON.parse(process.env.JOB);
  const provider = await Pkcs11KeyProvider.open(job.options);
  const has = await provider.hasKey(job.kekId);
  const opened = await provider.unwrap(job.kekId, job.dataKeyId, Buffer.from(job.wrapped, 'hex'));
  const initial = await provider.wrap(provider.initialKeyId(), job.dataKeyId, opened);
  provider.close();
  process.stdout.write(JSON.stringify({ has, opened: opened.toString('hex'), initial: initial.toString('hex') }));
`;

function otherProcess(job: object): Promise<{ has: boolean; opened: string; initial: string }> {
  const args = ['--import', 'tsx', '--input-type=module', '-e', OTHER_PROCESS];
  const env = { ...process.env, PROVIDER_URL, JOB: JSON.stringify(job) };
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { env }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

describe('PKCS#11 key provider (SoftHSM2)', function () {
  this.timeout(30_000);
  let token: SoftHsmToken;
  let options: Pkcs11Options;
  let provider: Pkcs11KeyProvider;
  const confBefore = process.env.SOFTHSM2_CONF;

  before(async () => {
    token = softHsmToken();
    process.env.SOFTHSM2_CONF = token.conf;
    options = {
      module: SOFTHSM_MODULE,
      tokenLabel: token.tokenLabel,
      pin: token.pin,
      initialKeyLabel: 'pkcs11-initial',
    };
    provider = await Pkcs11KeyProvider.open(options);
  });
  after(() => {
    provider?.close();
    if (confBefore === undefined) delete process.env.SOFTHSM2_CONF;
    else process.env.SOFTHSM2_CONF = confBefore;
    token?.remove();
  });

  it('wraps a data key in the token under the initial KEK, made at its first use, and unwraps it', async () => {
    const kekId = provider.initialKeyId();
    expect(kekId).to.equal('pkcs11-initial');
    expect(await provider.hasKey(kekId)).to.equal(true);
    const key = randomBytes(32);
    const dataKeyId = randomUUID();
    const wrapped = await provider.wrap(kekId, dataKeyId, key);
    expect(wrapped.length).to.equal(60);
    expect(wrapped.includes(key)).to.equal(false);
    expect(wrapped.equals(await provider.wrap(kekId, dataKeyId, key))).to.equal(false); // a new IV each time
    expect((await provider.unwrap(kekId, dataKeyId, wrapped)).equals(key)).to.equal(true);
  });

  it('binds the wrapped key to its KEK id and data key id, and knows no other KEK', async () => {
    const kekId = provider.initialKeyId();
    const other = await provider.createKey();
    expect(other).to.match(/^pkcs11-[0-9a-f]{16}$/);
    expect(await provider.hasKey(other)).to.equal(true);
    const dataKeyId = randomUUID();
    const wrapped = await provider.wrap(kekId, dataKeyId, randomBytes(32));
    expect(await rejection(provider.unwrap(other, dataKeyId, wrapped))).to.be.instanceOf(
      DecryptError,
    );
    expect(await rejection(provider.unwrap(kekId, randomUUID(), wrapped))).to.be.instanceOf(
      DecryptError,
    );
    const flipped = Buffer.from(wrapped);
    flipped[20]! ^= 1;
    expect(await rejection(provider.unwrap(kekId, dataKeyId, flipped))).to.be.instanceOf(
      DecryptError,
    );
    expect(
      await rejection(provider.unwrap(kekId, dataKeyId, wrapped.subarray(1))),
    ).to.be.instanceOf(DecryptError);
    expect(await provider.hasKey('local-0123456789abcdef')).to.equal(false);
    expect(
      await rejection(provider.unwrap('pkcs11-0000000000000000', dataKeyId, wrapped)),
    ).to.be.instanceOf(UnknownKeyError);
    // the session still serves after the refusals
    expect((await provider.unwrap(kekId, dataKeyId, wrapped)).length).to.equal(32);
  });

  it('is found by other processes: they use a key this one made, and agree on the initial one', async () => {
    const kekId = await provider.createKey();
    const key = randomBytes(32);
    const dataKeyId = randomUUID();
    const wrapped = (await provider.wrap(kekId, dataKeyId, key)).toString('hex');
    // three processes start at once on an initial label nothing has made yet: whether or not their
    // first uses overlap, they settle on one key
    const initialKeyLabel = `pkcs11-race-${randomBytes(4).toString('hex')}`;
    const job = { options: { ...options, initialKeyLabel }, kekId, dataKeyId, wrapped };
    const seen = await Promise.all([otherProcess(job), otherProcess(job), otherProcess(job)]);
    for (const { has, opened, initial } of seen) {
      expect(has).to.equal(true);
      expect(opened).to.equal(key.toString('hex'));
      const back = await provider.unwrap(initialKeyLabel, dataKeyId, Buffer.from(initial, 'hex'));
      expect(back.equals(key)).to.equal(true);
    }
    expect(tokenKeys(initialKeyLabel).length).to.equal(1);
    expect(tokenKeys(`pending:${initialKeyLabel}`).length).to.equal(0);
  });

  it('keeps the KEK in the token: its value cannot be read out, and a dropped session is replaced', async () => {
    const kekId = await provider.createKey();
    const raw = rawToken();
    try {
      const [kek] = raw.find(kekId);
      const { lib, token, session } = raw;
      const read = (type: number) => token.C_GetAttributeValue(session, kek!, [{ type }])[0]!.value;
      expect(() => read(lib.CKA_VALUE)).to.throw(/CKR_ATTRIBUTE_SENSITIVE/);
      for (const flag of [
        lib.CKA_TOKEN,
        lib.CKA_SENSITIVE,
        lib.CKA_ALWAYS_SENSITIVE,
        lib.CKA_NEVER_EXTRACTABLE,
      ])
        expect(read(flag)[0]).to.equal(1);
      for (const flag of [lib.CKA_EXTRACTABLE, lib.CKA_WRAP]) expect(read(flag)[0]).to.equal(0);
      // the token drops every session of this process (and so its login): the provider logs in again
      token.C_CloseAllSessions(raw.slot);
    } finally {
      raw.close();
    }
    const dataKeyId = randomUUID();
    const key = randomBytes(32);
    const wrapped = await provider.wrap(kekId, dataKeyId, key);
    expect((await provider.unwrap(kekId, dataKeyId, wrapped)).equals(key)).to.equal(true);
  });

  it('names the setting to fix when the module, the token or the PIN is wrong', async () => {
    const opening = (change: Partial<Pkcs11Options>) =>
      rejection(Pkcs11KeyProvider.open({ ...options, ...change }));
    expect(String(await opening({ module: join(tmpdir(), 'idv-missing-pkcs11.so') }))).to.match(
      /^Error: PKCS11_MODULE=/,
    );
    expect(String(await opening({ tokenLabel: 'no-such-token' }))).to.match(
      /^Error: PKCS11_TOKEN_LABEL=no-such-token: .*it has: idv-test/,
    );
    // a PIN is checked only while nothing in this process is logged in: the suite's provider is
    const wrongPin = await rejection(otherProcess({ options: { ...options, pin: 'wrong' } }));
    expect(String(wrongPin)).to.match(
      /PKCS11_PIN: the token idv-test refused the login \(CKR_PIN_INCORRECT\)/,
    );
  });

  describe('a Keyring over it', () => {
    let t: TestDatabase;
    let second: Pkcs11KeyProvider;
    before(async () => {
      t = await createTestDatabase([platformMigrations]);
      second = await Pkcs11KeyProvider.open(options); // another service, another provider
    });
    after(async () => {
      second?.close();
      await t?.drop();
    });

    it('seals, opens in another keyring, rotates, re-wraps and reports status', async () => {
      const gateway = new Keyring(t.db, provider);
      const worker = new Keyring(t.db, second);
      const owners = Array.from({ length: 20 }, () => randomUUID());
      const sealed = [];
      for (const owner of owners) {
        const key = await gateway.newDataKey({ kind: 'session', id: owner });
        sealed.push({ owner, value: key.seal('Testy McTestface', owner) });
      }
      for (const { owner, value } of sealed)
        expect(await worker.open(value, owner)).to.equal('Testy McTestface');
      const initial = provider.initialKeyId();
      expect(await t.db('keys.master_keys').select('key_id', 'provider')).to.deep.equal([
        { key_id: initial, provider: 'pkcs11' },
      ]);
      const next = await gateway.rotate();
      expect(next).to.match(/^pkcs11-[0-9a-f]{16}$/);
      expect(await gateway.rewrap({ batch: 8 })).to.equal(owners.length);
      // a keyring of the other provider, which has not seen the new KEK yet: it looks it up
      const fresh = new Keyring(t.db, second);
      for (const { owner, value } of sealed)
        expect(await fresh.open(value, owner)).to.equal('Testy McTestface');
      const later = await fresh.newDataKey({ kind: 'session', id: randomUUID() });
      expect(
        (await t.db('keys.data_keys').where({ id: later.id }).first('kek_id')).kek_id,
      ).to.equal(next);
      const status = await gateway.status();
      expect(status.current).to.equal(next);
      expect(status.keys).to.deep.equal([
        { keyId: initial, state: 'active', values: 0 },
        { keyId: next, state: 'current', values: owners.length + 1 },
      ]);
    });
  });

  /** The token seen without the provider: this process's own session on it. */
  function rawToken() {
    const lib = createRequire(import.meta.url)('pkcs11js') as typeof import('pkcs11js');
    const token = new lib.PKCS11();
    token.load(SOFTHSM_MODULE);
    try {
      token.C_Initialize(); // the provider's open already did; PKCS#11 state is the process's
    } catch (err) {
      if (!/CKR_CRYPTOKI_ALREADY_INITIALIZED/.test(String(err))) throw err;
    }
    const slot = token
      .C_GetSlotList(true)
      .find((s) => token.C_GetTokenInfo(s).label.trim() === options.tokenLabel)!;
    const session = token.C_OpenSession(slot, lib.CKF_SERIAL_SESSION);
    const find = (label: string) => {
      token.C_FindObjectsInit(session, [{ type: lib.CKA_LABEL, value: label }]);
      const found = token.C_FindObjects(session, 8);
      token.C_FindObjectsFinal(session);
      return found;
    };
    return { lib, token, slot, session, find, close: () => token.close() };
  }

  function tokenKeys(label: string) {
    const raw = rawToken();
    try {
      return raw.find(label);
    } finally {
      raw.token.C_CloseSession(raw.session);
      raw.close();
    }
  }
});
