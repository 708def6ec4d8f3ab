// GET / serves the web app's index.html (pages are routed in the browser, after '#'), and
// /assets/{file} its hashed scripts and styles, cached for good.
import { NotFound, Unavailable, type Route } from '@idv/http';
import type { WebFiles } from './webFiles.ts';

export function webRoutes(files: WebFiles): Route[] {
  return [
    {
      method: 'GET',
      path: '/',
      doc: { summary: 'the console web app' },
      handler: async (_req, res) => {
        const page = await files.index();
        if (!page)
          throw new Unavailable(
            'the console web app is not built (npm run build -w services/console)',
            30,
          );
        res
          .set({ 'Cache-Control': 'no-store', 'Content-Type': 'text/html; charset=utf-8' })
          .send(page);
      },
    },
    {
      method: 'GET',
      path: '/assets/:file',
      doc: { summary: "the web app's scripts and styles (hashed names, immutable)" },
      handler: async (req, res) => {
        const path = await files.asset(String(req.params.file));
        if (!path) throw new NotFound(`no asset ${String(req.params.file)}`);
        res.set('Cache-Control', 'public, max-age=31536000, immutable').sendFile(path);
      },
    },
  ];
}
