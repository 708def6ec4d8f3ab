// The built web app (services/console/dist by default): its index.html and its hashed assets.
// Nothing else of the directory is reachable. A relative directory is taken from the repository's
// root, so the console finds it whatever its cwd.
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Vite's hashed asset names: letters, digits, dot, dash, underscore; no leading dot. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** The repository's root (this file is services/console/src/web/webFiles.ts). */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface WebFiles {
  index(): Promise<Buffer | undefined>;
  asset(name: string): Promise<string | undefined>;
}

export function webFiles(directory: string): WebFiles {
  const root = resolve(REPO_ROOT, directory);
  return {
    index: () => readFile(join(root, 'index.html')).catch(() => undefined),
    async asset(name) {
      if (!ASSET_NAME.test(name)) return undefined;
      const path = join(root, 'assets', name);
      return (await stat(path).catch(() => undefined))?.isFile() ? path : undefined;
    },
  };
}
