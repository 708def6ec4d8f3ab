// The answer of a request whose redirect_uri is trusted: a 303 there with the code or the error,
// then state and iss.
import type { Response } from 'express';

export type Answer = { code: string } | { error: string; error_description: string };

export function answerAtRedirectUri(
  res: Response,
  redirectUri: string,
  answer: Answer,
  { state, iss }: { state: string | undefined; iss: string },
): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...answer, state, iss })) {
    if (value !== undefined) url.searchParams.append(name, value);
  }
  res.redirect(303, url.toString());
}
