// Vite builds the capture page into dist/: index.html plus hashed assets under /capture/assets/,
// which the gateway serves under a CSP without inline scripts or styles, so nothing is inlined.
// `npm run dev -w services/capture-page` proxies the page's API to a gateway (CAPTURE_API_TARGET,
// default the `make run` gateway).
import { defineConfig } from 'vite';

const target = process.env.CAPTURE_API_TARGET ?? 'http://127.0.0.1:8081';

export default defineConfig({
  base: '/capture/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
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
