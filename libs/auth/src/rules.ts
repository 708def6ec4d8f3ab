// Per-endpoint access rules, declared in route tables and enforced by one middleware.
import type { Registry } from '@idv/observability';
import { AccessRefused, CredentialRefused, refusalCounter } from './refusal.ts';
import type { Community, Licence, LicenceLevel, LicenceStore, RateBuckets } from '@idv/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { openCredentials, type CredentialCheckDeps, type Credentials } from './credentials.ts';
import { previousKeyNotice } from './previousKey.ts';
import { createRateLimiter, type RefusalHold } from './rateLimit.ts';

export interface AccessRule {
  /** licence levels allowed; absent: any valid licence */
  levels?: readonly LicenceLevel[];
  /**
   * the community the licence must cover, read from the request: by id, or by name where a path
   * names it (the oauth issuers); never "id or name", since a name may look like another's id.
   */
  community?: CommunityRef;
  /** the tenant the covered community must belong to */
  tenant?: (req: Request) => string | undefined;
}

export type CommunityRef =
  { id: (req: Request) => string | undefined } | { name: (req: Request) => string | undefined };

export const fromParam =
  (name: string) =>
  (req: Request): string | undefined => {
    const value = req.params[name];
    return typeof value === 'string' ? value : undefined;
  };

/** Throws unless the licence may make this request; answers the community it addresses, if any. */
function enforce(rule: AccessRule, licence: Licence, req: Request): Community | undefined {
  if (rule.levels && !rule.levels.includes(licence.level)) {
    throw new AccessRefused(
      `licence level ${licence.level} is not allowed here (needs ${rule.levels.join(' or ')})`,
    );
  }
  const ref = rule.community;
  const community = ref && ('id' in ref ? ref.id(req) : ref.name(req));
  if (ref && community !== undefined) {
    const tenant = rule.tenant?.(req);
    // a system licence covers every community; the others only those they list, compared by the
    // one attribute the path carries
    const match = licence.communities.find((c) =>
      'id' in ref ? c.id === community : c.name === community,
    );
    if (!match && licence.level !== 'system')
      throw new AccessRefused(`licence does not cover community ${community}`);
    if (tenant !== undefined && match && match.tenantId !== tenant) {
      throw new AccessRefused(`community ${community} does not belong to tenant ${tenant}`);
    }
    return match;
  }
  return undefined;
}

/**
 * enforce(), and a request it refuses still spends its request id (a replay of it is 401): one
 * not bound to its route (no htm/htu) could otherwise be sent again where its licence is allowed.
 */
async function enforceSpending(
  rule: AccessRule,
  licence: Licence,
  req: Request,
  recordUse: () => Promise<void>,
): Promise<Community | undefined> {
  try {
    return enforce(rule, licence, req);
  } catch (err) {
    await recordUse();
    throw err;
  }
}

export function credentialsOf(res: Response): Credentials {
  const credentials = res.locals.credentials as Credentials | undefined;
  if (!credentials) throw new Error('credentialsOf called on a route without a credential rule');
  return credentials;
}

export function licenceOf(res: Response): Licence {
  const licence = res.locals.licence as Licence | undefined;
  if (!licence) throw new Error('licenceOf called on a route without a licence rule');
  return licence;
}

export interface CredentialAuth {
  /** the three ECDSA headers plus `rule` */
  require(rule?: AccessRule): RequestHandler;
  /** the plain `license` header (GET /environment) */
  requireLicenceHeader(): RequestHandler;
}

export function createCredentialAuth(
  deps: CredentialCheckDeps & {
    licences: LicenceStore;
    registry?: Registry;
    /** the shared rate limit buckets; absent: no rate limits */
    rateBuckets?: RateBuckets;
    /** how refusals of a limit are answered to a client that does not wait */
    refusalHold?: RefusalHold;
  },
): CredentialAuth {
  const count = refusalCounter(deps.registry);
  const limiter =
    deps.rateBuckets && createRateLimiter(deps.rateBuckets, deps.registry, deps.refusalHold);
  const notice = previousKeyNotice(deps.registry);
  const refuse = (next: NextFunction) => (err: unknown) => {
    count(err);
    next(err);
  };
  return {
    require(rule = {}) {
      const guard = (req: Request, res: Response, next: NextFunction) => {
        openCredentials(req, deps)
          .then(async ({ credentials, recordUse }) => {
            const community = await enforceSpending(rule, credentials.licence, req, recordUse);
            // before the request id is written: a request over a limit writes nothing and may be
            // sent again; a replay gives its token back, so a captured request sent again and
            // again spends none of its licence's budget
            const charged = await limiter?.check(res, credentials.licence, community);
            await recordUse().catch((err: unknown) => {
              if (charged) limiter?.giveBack(charged);
              throw err;
            });
            res.locals.credentials = credentials;
            res.locals.licence = credentials.licence;
            notice(res, credentials);
            next();
          })
          .catch(refuse(next));
      };
      return Object.assign(guard, { openapiSecurity: 'credentials' as const });
    },
    requireLicenceHeader() {
      const guard = (req: Request, res: Response, next: NextFunction) => {
        const key = req.get('license')?.trim();
        if (!key)
          return refuse(next)(new CredentialRefused('missing_header', 'missing header: license'));
        deps.licences
          .check(key)
          .then(async (verdict) => {
            if (!verdict.ok) {
              const said = verdict.reason === 'unknown' ? 'not known' : verdict.reason;
              throw new CredentialRefused(`licence_${verdict.reason}`, `licence is ${said}`);
            }
            await limiter?.check(res, verdict.licence, undefined);
            res.locals.licence = verdict.licence;
            next();
          })
          .catch(refuse(next));
      };
      return Object.assign(guard, { openapiSecurity: 'license' as const });
    },
  };
}
