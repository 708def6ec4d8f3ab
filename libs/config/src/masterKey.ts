// MASTER_KEY from the environment, or a generated development key kept in a git-ignored file.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './loadConfig.ts';

export interface MasterKeySettings {
  MASTER_KEY?: string | undefined;
  MASTER_KEY_FILE: string;
  NODE_ENV: string;
}

function decode(value: string): Buffer {
  const text = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new ConfigError('MASTER_KEY must be 32 bytes in base64 or hex');
  return key;
}

export interface MasterKey {
  key: Buffer;
  /** true for the generated development key: what it sealed is disposable */
  development: boolean;
}

/** `warn` is told loudly when a development key is generated or reused. */
export function resolveMasterKey(
  settings: MasterKeySettings,
  warn: (line: string) => void,
): MasterKey {
  if (settings.MASTER_KEY) return { key: decode(settings.MASTER_KEY), development: false };
  if (settings.NODE_ENV === 'production') {
    throw new ConfigError('MASTER_KEY is required when NODE_ENV=production');
  }
  const file = settings.MASTER_KEY_FILE;
  try {
    const key = { key: decode(readFileSync(file, 'utf8')), development: true };
    warn(
      `MASTER_KEY is not set: using the DEVELOPMENT master key in ${file}. Never use it in production.`,
    );
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
    warn(
      `MASTER_KEY is not set: generated a DEVELOPMENT master key in ${file}. Never use it in production.`,
    );
  } catch (err) {
    // another process created it first; fall through and read theirs
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { key: decode(readFileSync(file, 'utf8')), development: true };
}
