// The built capture page (services/capture-page/dist by default): its index.html, served for every
// page token, and its hashed assets, each with the brotli (.br) and gzip (.gz) copies the build
// wrote beside it, served to a browser that takes them. Nothing else of the directory is
// reachable, nor a compressed copy by its own name. A relative directory is taken from the
// repository's root, so the gateway finds the page whatever its cwd.
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Vite's hashed asset names: letters, digits, dot, dash, underscore; no leading dot. */
export const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** The encodings the build writes beside an asset, best first, as Content-Encoding names them. */
export const ASSET_ENCODINGS = { br: '.br', gzip: '.gz' } as const;
export type AssetEncoding = keyof typeof ASSET_ENCODINGS;

export interface PageFiles {
  /** index.html, or undefined when the page is not built */
  index(): Promise<Buffer | undefined>;
  /**
   * The absolute path of an asset that exists, in the first of `encodings` it has a copy in
   * (none fitting: the asset itself); undefined when there is no such asset.
   */
  asset(
    name: string,
    encodings?: readonly AssetEncoding[],
  ): Promise<{ path: string; encoding?: AssetEncoding } | undefined>;
}

const isFile = async (path: string) => (await stat(path).catch(() => undefined))?.isFile() ?? false;

/** The repository's root (this file is services/docverify-gateway/src/capture/pageFiles.ts). */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export function pageFiles(directory: string): PageFiles {
  const root = resolve(REPO_ROOT, directory);
  const assets = join(root, 'assets');
  return {
    async index() {
      return readFile(join(root, 'index.html')).catch(() => undefined);
    },
    async asset(name, encodings = []) {
      if (!ASSET_NAME.test(name) || /\.(br|gz)$/.test(name)) return undefined;
      const path = join(assets, name);
      if (!(await isFile(path))) return undefined;
      for (const encoding of encodings) {
        const copy = `${path}${ASSET_ENCODINGS[encoding]}`;
        if (await isFile(copy)) return { path: copy, encoding };
      }
      return { path };
    },
  };
}
