// Without a proof the POST is the same request as a GET, which leads to the login and consent
// pages: a 303 to it with every parameter as given.
import type { Request, Response } from 'express';
import type { AuthorizeParams } from './params.ts';

export function continueWithoutProof(req: Request, res: Response, params: AuthorizeParams): void {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of [value].flat()) if (typeof one === 'string') query.append(name, one);
  }
  res.redirect(303, `${req.baseUrl}/v1/authorize?${query.toString()}`);
}
