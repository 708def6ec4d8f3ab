// Everything under /community/{community}: our own authorize, interaction and EAM routes first,
// then the community's oidc-provider, which parses its own bodies.
import express, { type NextFunction, type Request, type Response } from 'express';
import { NotFound } from '@idv/http';
import type { CredentialAuth } from '@idv/auth';
import type { SignInDeps } from '../login/signInFlow.ts';
import { brandingCss, brandingLogo } from '../pages/assets.ts';
import type { CommunityIssuer, ProviderCache } from '../providerCache.ts';
import { postAuthorize } from './authorize.ts';
import { eamContext, eamHintIntake } from './eam.ts';
import { showInteraction, submitConsent, submitLogin, submitPasskeySignIn } from './interaction.ts';
import {
  continueAfterRecoveryCodes,
  skipEnrolment,
  submitPasskeyEnrolment,
  submitRecoveryCode,
  submitSecondFactorPasskey,
  submitTotp,
  submitTotpEnrolment,
} from './secondFactor.ts';
import { expiredPage } from './signInRequest.ts';

export interface CommunityRouterDeps extends SignInDeps {
  providers: ProviderCache;
  auth: CredentialAuth;
  /** public scheme://host; when empty it comes from the request (honouring trust proxy) */
  publicUrl: string;
}

export function communityRouter(deps: CommunityRouterDeps): express.Router {
  const router = express.Router({ mergeParams: true });
  const form = express.urlencoded({ extended: false, limit: '64kb' });
  const tag = (route: string) => (_req: Request, res: Response, next: NextFunction) => {
    res.locals.route = `/community/:community${route}`;
    next();
  };

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    const name = String(req.params.community);
    // req.host honours X-Forwarded-Host only when TRUST_PROXY trusts the peer
    const base = (deps.publicUrl || `${req.protocol}://${req.host}`).replace(/\/$/, '');
    const found = await deps.providers.get(base, name);
    if (!found) throw new NotFound(`unknown community ${name}`);
    // oidc-provider (also through interactionDetails in our routes) builds its URLs from the
    // request: it trusts these two, always set here to the issuer's origin
    const origin = new URL(found.issuer);
    req.headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = origin.host;
    res.locals.issuer = found;
    res.locals.route ??= '/community/:community/*';
    next();
  });

  router.get('/v1/authorize', tag('/v1/authorize'), eamHintIntake(deps.trust));
  router.post('/v1/authorize', tag('/v1/authorize'), form, postAuthorize(deps));
  router.get(
    '/v1/interaction/:uid/eam-context',
    tag('/v1/interaction/:uid/eam-context'),
    deps.auth.require({
      levels: ['system', 'service', 'service_ext'],
      community: { name: (req) => String(req.params.community) },
    }),
    eamContext(deps.trust),
  );
  router.get('/v1/assets/:file', tag('/v1/assets/:file'), deps.assets.serve);
  router.get('/v1/branding.css', tag('/v1/branding.css'), brandingCss(deps.settings));
  router.get('/v1/branding/logo', tag('/v1/branding/logo'), brandingLogo(deps.settings));
  router.get('/v1/interaction/:uid', tag('/v1/interaction/:uid'), showInteraction(deps));
  const forms = {
    login: submitLogin,
    passkey: submitPasskeySignIn,
    consent: submitConsent,
    totp: submitTotp,
    recovery: submitRecoveryCode,
    'second-factor/passkey': submitSecondFactorPasskey,
    'enrol/totp': submitTotpEnrolment,
    'enrol/passkey': submitPasskeyEnrolment,
    'enrol/skip': skipEnrolment,
    continue: continueAfterRecoveryCodes,
  };
  for (const [path, handler] of Object.entries(forms)) {
    const route = `/v1/interaction/:uid/${path}`;
    router.post(route, tag(route), form, handler(deps));
  }
  router.use('/v1/interaction', expiredPage(deps));

  router.use((req: Request, res: Response) => {
    const { handle } = res.locals.issuer as CommunityIssuer;
    return handle(req, res);
  });
  return router;
}
