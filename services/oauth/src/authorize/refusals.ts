// The two ways POST /v1/authorize refuses: a 400 before the redirect_uri is trusted, an OAuth
// error at the redirect_uri after.
import { HttpError } from '@idv/http';

/**
 * Before the redirect_uri is trusted nothing may be sent there: the body oidc-provider renders
 * for the GET on this endpoint, with the OAuth error code in `error`.
 */
export const refused = (error: string, message: string) => new HttpError(400, error, message);

/** After: the client hears `error` and its description at the redirect_uri. */
export class RefusedAtRedirect extends Error {
  override name = 'RefusedAtRedirect';

  constructor(
    readonly error: string,
    description: string,
    /** set when a sign-in failed: the reason its E_OAUTH_LOGIN_FAILED event carries */
    readonly loginFailure?: string,
  ) {
    super(description);
  }
}
