// Headers on every answer of the console: a Content-Security-Policy as strict as the capture
// page's (no inline script or style, forms only to itself and the operators' issuer), no
// sniffing, no referrer, no framing.
import type { NextFunction, Request, Response } from 'express';

export function consoleCsp(issuerOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    `form-action 'self' ${issuerOrigin}`,
  ].join('; ');
}

export function securityHeaders(issuer: string) {
  const headers = {
    'Content-Security-Policy': consoleCsp(new URL(issuer).origin),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  return (_req: Request, res: Response, next: NextFunction) => {
    res.set(headers);
    next();
  };
}
