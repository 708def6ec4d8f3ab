// The build stamp of /healthz: <git-tag>.<commit-id>.<dob> or <commit-id>.<dob>, dob in epoch seconds.
import { execFileSync } from 'node:child_process';

function git(args: string[]): string | undefined {
  try {
    return (
      execFileSync('git', args, {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 2000,
      }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** BUILD_VERSION when stamped at build (images); otherwise read from git now, dob = now. */
export function buildVersion(stamped?: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  if (stamped) return stamped;
  const commit = git(['rev-parse', '--short', 'HEAD']) ?? 'unknown';
  const tag = git(['describe', '--tags', '--exact-match', 'HEAD']);
  return [tag, commit, String(nowSeconds)].filter(Boolean).join('.');
}
