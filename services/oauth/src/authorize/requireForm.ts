// The body must be a form: a JSON or multipart body would otherwise read as "no parameters" and
// lose them silently.
import type { Request } from 'express';
import type { AuthorizeParams } from './params.ts';
import { refused } from './refusals.ts';

export function requireForm(req: Request): AuthorizeParams {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw refused(
      'invalid_request',
      'only application/x-www-form-urlencoded content-type bodies are supported on POST /v1/authorize',
    );
  }
  return (req.body ?? {}) as AuthorizeParams;
}
