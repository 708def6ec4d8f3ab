// Vite builds the capture page into dist/: index.html plus hashed assets under /capture/assets/,
// which the gateway serves under a CSP without inline scripts or styles, so nothing is inlined.
// `npm run dev -w services/capture-page` proxies the page's API to a gateway (CAPTURE_API_TARGET,
// default the `make run` gateway). Each script, style, image, WebAssembly module and weights file
// over 1 kB gets a brotli (.br) and a gzip (.gz) copy beside it, which the gateway serves to a
// browser that takes them.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    enforce: 'post',
    // after Vite's own generateBundle, which fills in the preload lists of dynamic imports
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const [fileName, file] of Object.entries(bundle)) {
          if (!/^assets\/.*\.(js|css|svg|bin|wasm)$/.test(fileName)) continue;
          const bytes = Buffer.from(file.type === 'chunk' ? file.code : file.source);
          if (bytes.length < 1024) continue;
          const br = brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
          });
          this.emitFile({ type: 'asset', fileName: `${fileName}.br`, source: br });
          this.emitFile({
            type: 'asset',
            fileName: `${fileName}.gz`,
            source: gzipSync(bytes, { level: 9 }),
          });
        }
      },
    },
  };
}

const FACE = fileURLToPath(new URL('./src/face', import.meta.url));
const target = process.env.CAPTURE_API_TARGET ?? 'http://127.0.0.1:8081';

export default defineConfig({
  base: '/capture/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: {
    // face-api's esm-nobundle build imports all of TensorFlow.js and two backends: the selfie
    // detector's chunk takes only the ops it calls (src/face/tfjs.ts) and the WASM backend
    alias: [
      { find: /^@tensorflow\/tfjs\/dist\/index\.js$/, replacement: `${FACE}/tfjs.ts` },
      {
        find: /^@tensorflow\/tfjs-backend-(webgl|wasm)\/dist\/index\.js$/,
        replacement: `${FACE}/absent.ts`,
      },
    ],
  },
  plugins: [precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // no data: URLs and no inline module-preload polyfill: every byte comes from a hashed file
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2020',
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: { '/capture-api': { target, changeOrigin: true } },
  },
});
