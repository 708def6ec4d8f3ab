// At-rest sealing and Standard Webhooks callback signatures.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import {
  createSecretBox,
  DecryptError,
  generateKeyPair,
  generateWebhookSecret,
  signCallback,
  verifyCallback,
} from '../src/index.ts';

describe('crypto: secret box', () => {
  const box = createSecretBox(Buffer.alloc(32, 1));
  it('seals and opens, bound to its context', () => {
    const sealed = box.seal('s3cret', 'verifier:1');
    expect(sealed).to.match(/^mk1:/).and.not.contain('s3cret');
    expect(box.open(sealed, 'verifier:1')).to.equal('s3cret');
    expect(() => box.open(sealed, 'verifier:2')).to.throw(DecryptError);
    expect(() => createSecretBox(Buffer.alloc(32, 2)).open(sealed, 'verifier:1')).to.throw(
      DecryptError,
    );
  });
  it('seals and opens bytes as bytes, bound to its context', () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 1, 2, 3]);
    const sealed = box.sealBytes(image, 'session:1:front');
    expect(sealed.length).to.equal(1 + 12 + image.length + 16);
    expect(sealed.includes(image)).to.equal(false);
    expect(box.openBytes(sealed, 'session:1:front').equals(image)).to.equal(true);
    expect(() => box.openBytes(sealed, 'session:1:back')).to.throw(DecryptError);
    const tampered = Buffer.from(sealed);
    tampered[20] = tampered[20]! ^ 1;
    expect(() => box.openBytes(tampered, 'session:1:front')).to.throw(DecryptError);
    expect(() => box.openBytes(Buffer.from([1, 2, 3]), '')).to.throw(DecryptError);
    expect(() => box.openBytes(Buffer.from([7, ...sealed.subarray(1)]), '')).to.throw(DecryptError);
    expect(box.openBytes(box.sealBytes(Buffer.alloc(0))).length).to.equal(0);
  });
  it('refuses a master key that is not 32 bytes', () => {
    expect(() => createSecretBox(Buffer.alloc(16))).to.throw(RangeError);
  });
});

describe('crypto: callback signatures', () => {
  const secret = generateWebhookSecret();
  const service = generateKeyPair();
  const now = 1_795_300_000;
  const body = '{"eventName":"E_IDV_DOCUMENT_VALIDATE"}';
  const signature = signCallback({
    id: 'msg_1',
    timestamp: now,
    body,
    secrets: [secret],
    servicePrivateKeys: [service.privateKey],
  });
  const headers = {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(now),
    'webhook-signature': signature,
  };

  it('produces the Standard Webhooks v1 HMAC over id.timestamp.body', () => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`msg_1.${now}.${body}`).digest('base64');
    expect(signature.split(' ')[0]).to.equal(`v1,${expected}`);
    expect(signature.split(' ')[1]).to.match(/^v1k,/);
  });
  it('verifies with the secret or with the service public key', () => {
    expect(verifyCallback({ headers, body, secret, now })).to.deep.equal({ ok: true });
    expect(
      verifyCallback({ headers, body, servicePublicKey: service.publicKey, now }),
    ).to.deep.equal({ ok: true });
  });
  it('rejects a changed body, an old timestamp and a wrong secret', () => {
    expect(verifyCallback({ headers, body: body + ' ', secret, now }).ok).to.equal(false);
    expect(verifyCallback({ headers, body, secret, now: now + 3600 }).ok).to.equal(false);
    expect(verifyCallback({ headers, body, secret: generateWebhookSecret(), now }).ok).to.equal(
      false,
    );
    expect(verifyCallback({ headers: {}, body, secret, now }).ok).to.equal(false);
  });
  it('signs with both secrets during a rotation', () => {
    const next = generateWebhookSecret();
    const both = signCallback({ id: 'msg_2', timestamp: now, body, secrets: [secret, next] });
    const h = {
      'webhook-id': 'msg_2',
      'webhook-timestamp': String(now),
      'webhook-signature': both,
    };
    expect(verifyCallback({ headers: h, body, secret, now }).ok).to.equal(true);
    expect(verifyCallback({ headers: h, body, secret: next, now }).ok).to.equal(true);
  });
  it('signs v1k with the current service key and each previous one during a key grace', () => {
    const previous = generateKeyPair();
    const signature = signCallback({
      id: 'msg_3',
      timestamp: now,
      body,
      secrets: [],
      servicePrivateKeys: [service.privateKey, previous.privateKey],
    });
    const h = {
      'webhook-id': 'msg_3',
      'webhook-timestamp': String(now),
      'webhook-signature': signature,
    };
    expect(signature.split(' ').map((entry) => entry.split(',')[0])).to.deep.equal(['v1k', 'v1k']);
    for (const key of [service.publicKey, previous.publicKey]) {
      expect(verifyCallback({ headers: h, body, servicePublicKey: key, now }).ok).to.equal(true);
    }
    const stranger = generateKeyPair().publicKey;
    expect(verifyCallback({ headers: h, body, servicePublicKey: stranger, now }).ok).to.equal(
      false,
    );
  });
});
