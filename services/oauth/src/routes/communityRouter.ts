// Everything under /community/{community}: our own authorize, interaction and EAM routes first,
// then the community's oidc-provider, which parses its own bodies.
import express, { type NextFunction, type Request, type Response } from 'express';
import { NotFound } from '@idv/http';
import type { CredentialAuth } from '@idv/auth';
import type { OauthEvents } from '../events.ts';
import type { ProviderCache } from '../providerCache.ts';
import type { AccountStore } from '../store/accountStore.ts';
import type { TrustStore } from '../store/trustStore.ts';
import { postAuthorize } from './authorize.ts';
import { eamContext, eamHintIntake } from './eam.ts';
import { showInteraction, submitConsent, submitLogin } from './interaction.ts';

export interface CommunityRouterDeps {
  providers: ProviderCache;
  accounts: AccountStore;
  trust: TrustStore;
  events: OauthEvents;
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
    const base = deps.publicUrl || `${req.protocol}://${req.get('host')}`;
    const found = await deps.providers.get(base.replace(/\/$/, ''), name);
    if (!found) throw new NotFound(`unknown community ${name}`);
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
      community: (req) => String(req.params.community),
    }),
    eamContext(deps.trust),
  );
  router.get('/v1/interaction/:uid', tag('/v1/interaction/:uid'), showInteraction());
  router.post(
    '/v1/interaction/:uid/login',
    tag('/v1/interaction/:uid/login'),
    form,
    submitLogin(deps),
  );
  router.post(
    '/v1/interaction/:uid/consent',
    tag('/v1/interaction/:uid/consent'),
    form,
    submitConsent(),
  );

  router.use((req: Request, res: Response) => {
    const { handle } = res.locals.issuer as { handle: (q: Request, s: Response) => unknown };
    return handle(req, res);
  });
  return router;
}
