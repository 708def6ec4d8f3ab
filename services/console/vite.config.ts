// Vite builds the console's web app (web/) into dist/: index.html plus hashed assets under
// /assets/, served by the console under a CSP without inline scripts or styles, so nothing is
// inlined. `npm run dev -w services/console` proxies /api and /auth to a console (CONSOLE_TARGET).
import { defineConfig } from 'vite';

const target = process.env.CONSOLE_TARGET ?? 'http://127.0.0.1:8084';

export default defineConfig({
  root: 'web',
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'react' },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2020',
    sourcemap: false,
  },
  server: { port: 5174, proxy: { '/api': target, '/auth': target } },
});
