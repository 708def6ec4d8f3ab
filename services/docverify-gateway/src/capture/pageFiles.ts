// The built capture page (services/capture-page/dist by default): its index.html, served for every
// page token, and its hashed assets. Nothing else of the directory is reachable. A relative
// directory is taken from the repository's root, so the gateway finds the page whatever its cwd.
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Vite's hashed asset names: letters, digits, dot, dash, underscore; no leading dot. */
export const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

export interface PageFiles {
  /** index.html, or undefined when the page is not built */
  index(): Promise<Buffer | undefined>;
  /** the absolute path of an asset that exists, else undefined */
  asset(name: string): Promise<string | undefined>;
}

/** The repository's root (this file is services/docverify-gateway/src/capture/pageFiles.ts). */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export function pageFiles(directory: string): PageFiles {
  const root = resolve(REPO_ROOT, directory);
  const assets = join(root, 'assets');
  return {
    async index() {
      return readFile(join(root, 'index.html')).catch(() => undefined);
    },
    async asset(name) {
      if (!ASSET_NAME.test(name)) return undefined;
      const path = join(assets, name);
      const found = await stat(path).catch(() => undefined);
      return found?.isFile() ? path : undefined;
    },
  };
}
