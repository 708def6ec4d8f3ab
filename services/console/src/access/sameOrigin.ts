// Cross-site writes are refused before anything else: a state-changing request must come from the
// console's own origin (Origin) and, where the browser says so, from the same origin
// (Sec-Fetch-Site). Without Origin a write is refused: every browser sends it on a POST.
import { Forbidden } from '@idv/http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function sameOriginWrites(publicUrl: string): RequestHandler {
  const origin = new URL(publicUrl).origin;
  return (req: Request, _res: Response, next: NextFunction) => {
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin')
      return next(new Forbidden(`cross-site request refused (Sec-Fetch-Site: ${site})`));
    const from = req.get('origin');
    if (from !== origin)
      return next(
        new Forbidden(`request refused: Origin must be ${origin}, not ${from ?? 'absent'}`),
      );
    next();
  };
}
