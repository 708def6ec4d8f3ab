// Issue 14, finding 3: a licence registry verifier's certPath reads no file of the worker host. It
// names a certificate of the job's community in CONNECTOR_CERT_DIR; anything else is a refusal
// (invalid_request / invalid_config), never a provider failure, and no read blocks or balloons.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TEST_CERTIFICATE_BASE64,
  TEST_CERTIFICATE_PASSPHRASE,
} from '@idv/testing/clientCertificate';
import {
  CLIENT_CERTIFICATE_MAX_BYTES,
  ClientCertificates,
} from '../src/provider/clientCertificates.ts';
import { dldvIds as dldv, dlVerifyLicence as licence } from '@idv/testing/connectors/fixtures';
import { startHarness, type Harness } from './harness.ts';

const pfx = Buffer.from(TEST_CERTIFICATE_BASE64, 'base64');

describe('connector worker: client certificates only from the operator directory', function () {
  this.timeout(60_000);
  let dir: string;
  let h: Harness;
  const community = randomUUID();
  const other = randomUUID();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idv-certs-'));
    const file = (name: string, owner = community) => join(dir, `${owner}.${name}`);
    await writeFile(file('registry.p12'), pfx);
    await writeFile(file('only-theirs.p12', other), pfx);
    await writeFile(file('huge.p12'), Buffer.alloc(CLIENT_CERTIFICATE_MAX_BYTES + 1));
    await mkdir(file('folder.p12'));
    await symlink('/dev/zero', file('zero.p12'));
    execFileSync('mkfifo', [file('fifo.p12')]);
    h = await startHarness({ CONNECTOR_CERT_DIR: dir });
    await h.startWorker('license_registry');
  });
  after(async () => {
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const ask = (config: Record<string, unknown>, communityId: string = community) =>
    h.ask({
      type: 'license_registry',
      kind: 'dl_verify',
      communityId,
      config: { ...dldv, ...config },
      document: licence,
    });

  it('uses a certificate of the job community that opens with its passphrase', async () => {
    const reply = await ask({ certPath: 'registry.p12', passphrase: TEST_CERTIFICATE_PASSPHRASE });
    expect(reply.outcome, JSON.stringify(reply.error)).to.equal('completed');
    expect(reply.result).to.include({ verified: true });
  });

  const refused: [string, Record<string, unknown>, string?][] = [
    ['a wrong passphrase', { certPath: 'registry.p12', passphrase: 'wrong' }],
    ['an absolute path (the master key file, say)', { certPath: '/etc/hostname' }],
    ['a way out of the directory', { certPath: '../registry.p12' }],
    ['a path inside it', { certPath: `x/${community}.registry.p12` }],
    ['a name that is not there (no existence oracle)', { certPath: 'absent.p12' }],
    ["another community's certificate", { certPath: 'only-theirs.p12' }],
    ['its own certificate asked under another community', { certPath: 'registry.p12' }, other],
    ['a file beyond the size cap', { certPath: 'huge.p12' }],
    ['a directory', { certPath: 'folder.p12' }],
    ['a device such as /dev/zero', { certPath: 'zero.p12' }],
    ['a FIFO (which would block a read)', { certPath: 'fifo.p12' }],
  ];
  for (const [name, config, communityId] of refused) {
    it(`refuses ${name}: invalid_request / invalid_config, not a provider failure`, async () => {
      const started = Date.now();
      const reply = await ask({ passphrase: TEST_CERTIFICATE_PASSPHRASE, ...config }, communityId);
      expect(reply.outcome, JSON.stringify(reply)).to.equal('invalid_request');
      expect(reply.error?.code).to.equal('invalid_config');
      expect(reply.error?.message ?? '').not.to.contain(dir);
      expect(Date.now() - started).to.be.below(3000);
    });
  }

  it('reads a file once, and again when it changes', async () => {
    const certificates = new ClientCertificates(dir);
    const first = await certificates.load(community, 'registry.p12');
    expect(first.equals(pfx)).to.equal(true);
    expect(await certificates.load(community, 'registry.p12')).to.equal(first);
    const file = join(dir, `${community}.registry.p12`);
    await writeFile(file, Buffer.concat([pfx, Buffer.from('x')]));
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    const changed = await certificates.load(community, 'registry.p12');
    expect(changed.length).to.equal(pfx.length + 1);
    await writeFile(file, pfx);
  });

  it('refuses names that are no plain file name, whatever the contract let through', async () => {
    const certificates = new ClientCertificates(dir);
    for (const name of ['../registry.p12', '/etc/hostname', '.', 'a/b', '']) {
      await certificates.load(community, name).then(
        () => expect.fail(`${name} read`),
        (err: Error) =>
          expect([err.name, (err as { code?: string }).code], name).to.deep.equal([
            'Refused',
            'invalid_config',
          ]),
      );
    }
  });

  it('refuses every certPath when the worker has no certificate directory', async () => {
    const none = new ClientCertificates('');
    await none.load(community, 'registry.p12').then(
      () => expect.fail('read without a directory'),
      (err: Error) =>
        expect([err.name, (err as { code?: string }).code]).to.deep.equal([
          'Refused',
          'invalid_config',
        ]),
    );
  });
});
