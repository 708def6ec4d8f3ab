// EAM: an id_token_hint from the community's external IdP is checked against that IdP's keys,
// swapped for a server-side reference (oidc-provider would reject a foreign hint), and read back
// by services through GET /v1/interaction/{uid}/eam-context; the browser never gets oid/tid.
import type { NextFunction, Request, Response } from 'express';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { NotFound } from '@idv/http';
import { TTL } from '../providerConfig.ts';
import type { CommunityIssuer } from '../providerCache.ts';
import type { TrustStore } from '../store/trustStore.ts';

type KeySet = ReturnType<typeof createRemoteJWKSet>;

export function eamHintIntake(trust: TrustStore) {
  const keySets = new Map<string, KeySet>();
  return async (req: Request, res: Response, next: NextFunction) => {
    const { community, issuer } = res.locals.issuer as CommunityIssuer;
    const url = new URL(req.url, 'http://local');
    url.searchParams.delete('eam_ref'); // only this intake may set it
    const hint = url.searchParams.get('id_token_hint');
    const idp = hint ? await trust.externalIdp(community.id) : undefined;
    const claimedIssuer = hint ? safeIssuer(hint) : undefined;
    if (hint && idp && claimedIssuer !== issuer) {
      let keys = keySets.get(idp.jwksUri);
      if (!keys) {
        keys = createRemoteJWKSet(new URL(idp.jwksUri), { timeoutDuration: 3000 });
        keySets.set(idp.jwksUri, keys);
      }
      const checked = await jwtVerify(hint, keys, {
        issuer: idp.issuer,
        audience: idp.audience,
        algorithms: ['RS256', 'ES256', 'PS256'],
      }).catch(() => undefined);
      const { oid, tid } = checked?.payload ?? {};
      if (storable(oid) && storable(tid)) {
        const ref = await trust.saveEamContext(community.id, { oid, tid }, TTL.Interaction, hint);
        url.searchParams.delete('id_token_hint');
        url.searchParams.set('eam_ref', ref);
      }
      // otherwise the hint stays and oidc-provider answers invalid_request to the client
    }
    req.url = `${url.pathname}${url.search}`;
    next();
  };
}

/** A claim PostgreSQL text can hold; anything else counts as not verified. */
const storable = (claim: unknown): claim is string =>
  typeof claim === 'string' && !claim.includes('\u0000');

function safeIssuer(token: string): string | undefined {
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}

export function eamContext(trust: TrustStore) {
  return async (req: Request, res: Response) => {
    const { provider, community } = res.locals.issuer as CommunityIssuer;
    const interaction = await provider.Interaction.find(String(req.params.uid));
    const ref = interaction?.params.eam_ref;
    const context = typeof ref === 'string' ? await trust.eamContext(community.id, ref) : undefined;
    if (!context) throw new NotFound('no EAM context for this interaction');
    res.json(context);
  };
}
