// A SoftHSM2 token of a suite's own (its own SOFTHSM2_CONF and token directory), for the PKCS#11
// key provider: parallel-safe, never a system token. Fails clearly where SoftHSM2 is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refuseInUnitRun } from './unitRun.ts';

export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';

export interface SoftHsmToken {
  /** SOFTHSM2_CONF of the token: in the environment of every process that uses it */
  conf: string;
  tokenLabel: string;
  pin: string;
  remove(): void;
}

const installed = () => {
  try {
    execFileSync('softhsm2-util', ['--version'], { stdio: 'ignore' });
    return existsSync(SOFTHSM_MODULE);
  } catch {
    return false;
  }
};

export function softHsmToken(label = 'idv-test'): SoftHsmToken {
  refuseInUnitRun('SoftHSM2');
  if (!installed())
    throw new Error(
      `SoftHSM2 is not installed here (softhsm2-util, ${SOFTHSM_MODULE}): run make install, which installs the Debian package softhsm2`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'idv-softhsm-'));
  mkdirSync(join(dir, 'tokens'));
  const conf = join(dir, 'softhsm2.conf');
  writeFileSync(
    conf,
    `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`,
  );
  const token = { tokenLabel: label, pin: '1234-test', soPin: '5678-test' };
  execFileSync(
    'softhsm2-util',
    [
      '--init-token',
      '--free',
      '--label',
      token.tokenLabel,
      '--pin',
      token.pin,
      '--so-pin',
      token.soPin,
    ],
    { stdio: 'ignore', env: { ...process.env, SOFTHSM2_CONF: conf } },
  );
  return {
    conf,
    tokenLabel: token.tokenLabel,
    pin: token.pin,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
