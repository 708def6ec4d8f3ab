// Issue 14, finding 6: what a worker keeps per provider account (access tokens, and the mTLS
// dispatcher they were fetched through) belongs to one verifier of one community with one config.
// Two communities' verifiers naming the same certificate file and passphrase and the same token URL,
// but with their own certificate bytes and verify URLs, each get a token of their own from the
// sandbox, and neither token is ever sent to the other's URL; nor is a verifier's token sent to a
// verify URL its config names later. document_auth_b's token, the same.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import {
  TEST_CERTIFICATE_BASE64,
  TEST_CERTIFICATE_PASSPHRASE,
} from '@idv/testing/clientCertificate';
import {
  dldvIds as dldv,
  dlVerifyLicence as licence,
  faces,
  key,
} from '@idv/testing/connectors/fixtures';
import { startHarness, type Harness } from './harness.ts';

/** A second PKCS#12 client certificate (other bytes, same passphrase), made with openssl. */
async function otherCertificate(dir: string): Promise<Buffer> {
  const [keyFile, certFile, pfxFile] = ['b.key', 'b.crt', 'b.p12'].map((f) => join(dir, f));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      keyFile!,
      '-out',
      certFile!,
      '-days',
      '1',
      '-subj',
      '/CN=Testy McTestface other registry client',
    ],
    { stdio: 'ignore' },
  );
  execFileSync(
    'openssl',
    [
      'pkcs12',
      '-export',
      '-inkey',
      keyFile!,
      '-in',
      certFile!,
      '-out',
      pfxFile!,
      '-passout',
      `pass:${TEST_CERTIFICATE_PASSPHRASE}`,
    ],
    { stdio: 'ignore' },
  );
  return readFile(pfxFile!);
}

/** The bearer tokens a sink received, in order. */
const bearers = (sink: Sink) =>
  sink.received.map((r) => /^Bearer (.+)$/.exec(r.headers.authorization ?? '')?.[1] ?? '');

describe('connector worker: provider credentials kept per verifier, community and config', function () {
  this.timeout(60_000);
  let dir: string;
  let h: Harness;
  const sinks: Sink[] = [];
  const communityA = randomUUID();
  const communityB = randomUUID();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idv-accounts-'));
    await writeFile(
      join(dir, `${communityA}.registry.p12`),
      Buffer.from(TEST_CERTIFICATE_BASE64, 'base64'),
    );
    await writeFile(join(dir, `${communityB}.registry.p12`), await otherCertificate(dir));
    h = await startHarness({ CONNECTOR_CERT_DIR: dir });
    await Promise.all([h.startWorker('license_registry'), h.startWorker('document_auth_b')]);
  });
  after(async () => {
    await h?.stop();
    await Promise.all(sinks.map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  });

  /** A provider address of its own that records what reaches it and answers as `body`. */
  const ownAddress = async (path: string, body: object): Promise<Sink> => {
    const sink = await startSink();
    sink.script(path, [{ status: 200, body: JSON.stringify(body) }]);
    sinks.push(sink);
    return sink;
  };

  it('license_registry: same certificate name, passphrase and token URL; own token per verifier', async () => {
    const registry = { transactionId: 't', recordFound: true, matches: { firstName: 'Y' } };
    const atA = await ownAddress('/verify', registry);
    const atB = await ownAddress('/verify', registry);
    const atA2 = await ownAddress('/verify', registry);
    const scope = `registry-${randomUUID().slice(0, 8)}`;
    const shared = {
      ...dldv,
      certPath: 'registry.p12',
      passphrase: TEST_CERTIFICATE_PASSPHRASE,
      primaryAuthUrl: `${h.sandbox.url}/s/${scope}/dldv/primary/auth`,
    };
    const ask = (verifierId: string, communityId: string, verify: Sink) =>
      h.ask({
        type: 'license_registry',
        kind: 'dl_verify',
        verifierId,
        communityId,
        config: { ...shared, primaryDLDVUrl: `${verify.url}/verify` },
        document: licence,
      });
    const verifierA = randomUUID();
    const verifierB = randomUUID();
    const replies = [];
    replies.push(await ask(verifierA, communityA, atA));
    replies.push(await ask(verifierB, communityB, atB));
    replies.push(...(await Promise.all([1, 2, 3].map(() => ask(verifierB, communityB, atB)))));
    replies.push(await ask(verifierA, communityA, atA));
    // verifier A's config now names another verify URL: a config of its own, a token of its own
    replies.push(await ask(verifierA, communityA, atA2));
    for (const reply of replies)
      expect(reply.outcome, JSON.stringify(reply.error)).to.equal('completed');

    const [tokensA, tokensB, tokensA2] = [bearers(atA), bearers(atB), bearers(atA2)];
    expect(tokensA).to.have.length(2);
    expect(tokensB).to.have.length(4);
    expect(tokensA2).to.have.length(1);
    for (const tokens of [tokensA, tokensB, tokensA2]) expect(new Set(tokens).size).to.equal(1);
    expect(tokensA[0]).to.match(/^dldv-/);
    // no URL ever saw a token fetched for another verifier, community or config
    expect(tokensB).to.not.include(tokensA[0]);
    expect(tokensA).to.not.include(tokensB[0]);
    expect(tokensA2).to.not.include(tokensA[0]);
    // each token was issued by the sandbox to its own account: three fetches, no more
    expect(h.sandbox.faults.callsOf(scope)).to.equal(3);
  });

  it('document_auth_b: same client, secret and token URL; own token per verifier', async () => {
    const compare = { score: 0.9, match: true };
    const atA = await ownAddress('/api/face/compare', compare);
    const atB = await ownAddress('/api/face/compare', compare);
    const scope = `docb-${randomUUID().slice(0, 8)}`;
    const ask = (verifierId: string, communityId: string, api: Sink) =>
      h.ask({
        type: 'document_auth_b',
        kind: 'face_compare',
        verifierId,
        communityId,
        config: {
          clientUrl: `${h.sandbox.url}/s/${scope}/docb/oauth/token`,
          clientId: 'testy-client',
          clientSecretKey: key,
          apiUrl: `${api.url}/api`,
          faceAPIKey: key,
        },
        document: faces('testy', 'testy'),
      });
    const verifierA = randomUUID();
    const verifierB = randomUUID();
    for (const [verifier, community, api] of [
      [verifierA, communityA, atA],
      [verifierB, communityB, atB],
      [verifierA, communityA, atA],
      [verifierB, communityB, atB],
    ] as const) {
      const reply = await ask(verifier, community, api);
      expect(reply.outcome, JSON.stringify(reply.error)).to.equal('completed');
    }
    const [tokensA, tokensB] = [bearers(atA), bearers(atB)];
    expect(tokensA).to.have.length(2);
    expect(tokensB).to.have.length(2);
    expect(new Set(tokensA).size).to.equal(1);
    expect(new Set(tokensB).size).to.equal(1);
    expect(tokensA[0]).to.match(/^docb-/);
    expect(tokensB).to.not.include(tokensA[0]);
    expect(h.sandbox.faults.callsOf(scope)).to.equal(2);
  });
});
