// Operators' bearer tokens (DESIGN 2.5): the console keeps an operator's access token from the
// operators' issuer and sends it as `Authorization: Bearer`; a gateway learns who the operator is,
// with their roles and communities, from that issuer's userinfo endpoint (the token is opaque).
// Answers are cached by a hash of the token for a short while, refusals for less, in a bounded
// map; concurrent checks of one token share one call.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AccessRefused, CredentialRefused } from './refusal.ts';

export const OPERATOR_ROLES = ['reviewer', 'senior_reviewer', 'admin', 'auditor', 'viewer'] as const; // prettier-ignore
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface Operator {
  /** the account's id at the operators' issuer */
  sub: string;
  username: string;
  roles: OperatorRole[];
  /** the communities the operator acts on; empty: every community */
  communities: string[];
}

export interface OperatorTokens {
  /** the operator a token stands for; undefined when the issuer does not know it (any more) */
  verify(token: string): Promise<Operator | undefined>;
}

export interface OperatorTokenOptions {
  /** the operators' issuer's userinfo endpoint */
  userinfoUrl: string;
  /** how long an answer is trusted (a revoked token works this long at most) */
  cacheMs?: number;
  /** how long a refusal is remembered */
  refusalCacheMs?: number;
  maxEntries?: number;
  timeoutMs?: number;
}

const isRole = (value: unknown): value is OperatorRole =>
  OPERATOR_ROLES.includes(value as OperatorRole);

function operatorFrom(claims: Record<string, unknown>): Operator | undefined {
  if (typeof claims.sub !== 'string' || !Array.isArray(claims.roles)) return undefined;
  const communities = Array.isArray(claims.communities) ? claims.communities : [];
  return {
    sub: claims.sub,
    username:
      typeof claims.preferred_username === 'string' ? claims.preferred_username : claims.sub,
    roles: claims.roles.filter(isRole),
    communities: communities.filter((c): c is string => typeof c === 'string'),
  };
}

export function createOperatorTokens(options: OperatorTokenOptions): OperatorTokens {
  const cacheMs = options.cacheMs ?? 30_000;
  const refusalMs = options.refusalCacheMs ?? 5_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<string, { until: number; operator: Promise<Operator | undefined> }>();

  const ask = async (token: string): Promise<Operator | undefined> => {
    const answer = await fetch(options.userinfoUrl, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    });
    if (answer.status === 401 || answer.status === 403 || answer.status === 400) {
      await answer.body?.cancel();
      return undefined;
    }
    if (!answer.ok) {
      await answer.body?.cancel();
      throw new Error(`operators' issuer answered ${answer.status}`);
    }
    return operatorFrom((await answer.json()) as Record<string, unknown>);
  };

  return {
    verify(token) {
      const key = createHash('sha256').update(token).digest('base64url');
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && hit.until > now) return hit.operator;
      const operator = ask(token);
      const entry = { until: now + cacheMs, operator };
      cache.delete(key);
      cache.set(key, entry);
      while (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
      operator.then(
        (found) => {
          if (!found) entry.until = Math.min(entry.until, Date.now() + refusalMs);
        },
        () => cache.get(key) === entry && cache.delete(key), // the issuer was away: ask again
      );
      return operator;
    },
  };
}

/** The bearer token of a request, if it has one. */
export function bearerOf(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header && /^Bearer +([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

export function operatorOf(res: Response): Operator | undefined {
  return res.locals.operator as Operator | undefined;
}

/** Whether `operator` acts on `communityId` (no communities listed: every one). */
export const operatorCovers = (operator: Operator, communityId: string): boolean =>
  operator.communities.length === 0 || operator.communities.includes(communityId);

export interface OperatorRule {
  /** roles allowed (any of them) */
  roles: readonly OperatorRole[];
  /** the community the operator must act on, read from the request */
  community?: (req: Request) => string | undefined;
}

/** Refuses unless `operator` holds one of the rule's roles on the rule's community. */
export function enforceOperator(rule: OperatorRule, operator: Operator, req: Request): void {
  if (!operator.roles.some((role) => rule.roles.includes(role)))
    throw new AccessRefused(`operator role needed: ${rule.roles.join(' or ')}`);
  const community = rule.community?.(req);
  if (community !== undefined && !operatorCovers(operator, community))
    throw new AccessRefused(`operator does not act on community ${community}`);
}

/**
 * A guard for an operator's bearer token: sets res.locals.operator when the token is known and
 * the rule allows it; 401 without a token or with one the issuer does not know, 403 otherwise.
 */
export function requireOperator(tokens: OperatorTokens, rule: OperatorRule): RequestHandler {
  const guard = (req: Request, res: Response, next: NextFunction) => {
    const token = bearerOf(req);
    if (!token) {
      next(new CredentialRefused('missing_header', 'missing header: Authorization: Bearer'));
      return;
    }
    tokens
      .verify(token)
      .then((operator) => {
        if (!operator) throw new CredentialRefused('bad_key', 'operator token is not valid');
        enforceOperator(rule, operator, req);
        res.locals.operator = operator;
        next();
      })
      .catch(next);
  };
  return Object.assign(guard, { openapiSecurity: 'operator' as const });
}

/**
 * Either an operator's bearer token (checked by `operatorRule`) or the three credential headers
 * (checked by `credentials`): a request with `Authorization: Bearer` is an operator's.
 */
export function operatorOrCredentials(
  tokens: OperatorTokens,
  operatorRule: OperatorRule,
  credentials: RequestHandler,
): RequestHandler {
  const operator = requireOperator(tokens, operatorRule);
  const guard = (req: Request, res: Response, next: NextFunction) => {
    if (req.get('authorization') !== undefined) operator(req, res, next);
    else credentials(req, res, next) as unknown;
  };
  return Object.assign(guard, { openapiSecurity: 'credentials_or_operator' as const });
}
