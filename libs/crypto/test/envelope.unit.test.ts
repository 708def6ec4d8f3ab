// Envelope encryption: values sealed under a data key name it and are bound to it and to their
// context; data keys wrapped under a KEK are bound to both ids; the local provider's keys have
// stable ids, and a key one process adds is found by another without a restart.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { eventually } from '@idv/testing/eventually';
import {
  createSecretBox,
  DataKey,
  dataKeyIdOf,
  DecryptError,
  LocalKeyProvider,
  localKeyId,
  UnknownKeyError,
  unwrapDataKey,
  wrapDataKey,
} from '../src/index.ts';

const refused = (action: () => unknown, type: new (...args: never[]) => Error = DecryptError) =>
  expect(action).to.throw(type);

describe('envelope encryption', () => {
  it('seals text and bytes under a data key that the sealed value names', () => {
    const key = DataKey.generate();
    const text = key.seal('Testy McTestface', 'run:1');
    expect(text).to.match(/^dk1\.[A-Za-z0-9_-]{22}\./);
    expect(dataKeyIdOf(text)).to.equal(key.id);
    expect(key.open(text, 'run:1')).to.equal('Testy McTestface');
    const bytes = key.sealBytes(Buffer.from('image bytes'), 'image:front');
    expect(bytes[0]).to.equal(2);
    expect(dataKeyIdOf(bytes)).to.equal(key.id);
    expect(key.openBytes(bytes, 'image:front').toString()).to.equal('image bytes');
  });

  it('refuses another context, another data key, a changed id and a changed byte', () => {
    const key = DataKey.generate();
    const other = DataKey.generate();
    const text = key.seal('secret', 'verifier:a');
    refused(() => key.open(text, 'verifier:b'));
    refused(() => other.open(text, 'verifier:a'));
    // the same key under another id: the id is bound as AAD
    const twin = new DataKey(other.id, key.material());
    const moved = `dk1.${text.split('.')[1]!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}.${text.split('.')[2]}`;
    refused(() => twin.open(moved, 'verifier:a'));
    const bytes = key.sealBytes(Buffer.from('abc'));
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 1]! ^= 1;
    refused(() => key.openBytes(flipped));
  });

  it('tells an mk1 value and v1 bytes from an envelope', () => {
    const box = createSecretBox(randomBytes(32));
    expect(dataKeyIdOf(box.seal('x'))).to.equal(undefined);
    expect(dataKeyIdOf(box.sealBytes(Buffer.from('x')))).to.equal(undefined);
    expect(dataKeyIdOf('dk1.short.x')).to.equal(undefined);
  });

  it('binds a wrapped data key to its KEK id and its own id', () => {
    const kek = randomBytes(32);
    const key = DataKey.generate();
    const wrapped = wrapDataKey(kek, 'kek-a', key.id, key.material());
    expect(wrapped.length).to.equal(60);
    expect(unwrapDataKey(kek, 'kek-a', key.id, wrapped).equals(key.material())).to.equal(true);
    refused(() => unwrapDataKey(kek, 'kek-b', key.id, wrapped));
    refused(() => unwrapDataKey(kek, 'kek-a', DataKey.generate().id, wrapped));
  });
});

describe('local key provider', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'idv-keys-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("names MASTER_KEY's KEK by its fingerprint: the same key, the same id", () => {
    const master = randomBytes(32);
    expect(new LocalKeyProvider(master, dir).initialKeyId()).to.equal(localKeyId(master));
    expect(localKeyId(master)).to.match(/^local-[0-9a-f]{16}$/);
    expect(localKeyId(randomBytes(32))).to.not.equal(localKeyId(master));
  });

  it('keeps a new key in a 0600 file that another process finds without a restart', async () => {
    const master = randomBytes(32);
    const writer = new LocalKeyProvider(master, dir);
    const reader = new LocalKeyProvider(master, dir);
    const keyId = await writer.createKey();
    expect(statSync(join(dir, `${keyId}.key`)).mode & 0o777).to.equal(0o600);
    const key = DataKey.generate();
    const wrapped = await writer.wrap(keyId, key.id, key.material());
    // the reader scanned at its start, before the key existed: it looks again for an unknown id
    // (at most every 100 ms)
    await eventually('the reader to find the new key', () => reader.hasKey(keyId));
    expect((await reader.unwrap(keyId, key.id, wrapped)).equals(key.material())).to.equal(true);
  });

  it('ignores a file whose key is not the one its name says, and refuses an unknown id', async () => {
    const master = randomBytes(32);
    const keyId = await new LocalKeyProvider(master, dir).createKey();
    const lines: string[] = [];
    writeFileSync(join(dir, `${keyId}.key`), randomBytes(32).toString('base64'));
    const provider = new LocalKeyProvider(master, dir, (line) => lines.push(line));
    expect(await provider.hasKey(keyId)).to.equal(false);
    expect(lines.join('\n')).to.contain('does not hold the key its name says');
    let err: unknown;
    await provider
      .wrap('local-0000000000000000', DataKey.generate().id, randomBytes(32))
      .catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(UnknownKeyError);
    expect(readFileSync(join(dir, `${keyId}.key`), 'utf8')).to.not.equal('');
  });

  it('has nowhere to keep a new key without a directory', async () => {
    let err: unknown;
    await new LocalKeyProvider(randomBytes(32), undefined)
      .createKey()
      .catch((e: unknown) => (err = e));
    expect((err as Error).message).to.contain('MASTER_KEYS_DIR');
  });
});
