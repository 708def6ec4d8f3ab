// Operators' bearer tokens (DESIGN 2.5): the console keeps an operator's access token from the
// operators' issuer and sends it as `Authorization: Bearer`; a gateway learns who the operator is,
// with their roles, communities and when they signed in, from that issuer's userinfo endpoint (the
// token is opaque). Answers are cached by a hash of the token (30 s) and refusals apart (5 s, in
// a smaller map, so a flood of made-up tokens cannot push known operators out); concurrent checks
// of one token share one call, and the calls in flight to the issuer are capped: beyond the cap,
// and while the issuer is away, the answer is 503, never a refusal or a 500.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Unavailable } from '@idv/http';
import { AccessRefused, CredentialRefused } from './refusal.ts';

export const OPERATOR_ROLES = [
  'reviewer',
  'senior_reviewer',
  'admin',
  'auditor',
  'viewer',
] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface Operator {
  /** the account's id at the operators' issuer */
  sub: string;
  username: string;
  roles: OperatorRole[];
  /** the communities the operator acts on; empty: every community */
  communities: string[];
  /** when the sign-in the token came from happened (seconds since the epoch), if the issuer said */
  authTime?: number;
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
  /** refusals remembered at once */
  maxRefusals?: number;
  /** calls to the issuer in flight at once; beyond: 503 */
  maxInFlight?: number;
  timeoutMs?: number;
}

const isRole = (value: unknown): value is OperatorRole =>
  OPERATOR_ROLES.includes(value as OperatorRole);

function operatorFrom(claims: Record<string, unknown>): Operator | undefined {
  // an answer without both lists is not an operator's (never read a missing list as "all")
  const { sub, roles, communities, auth_time: authTime } = claims;
  if (typeof sub !== 'string' || !Array.isArray(roles) || !Array.isArray(communities))
    return undefined;
  return {
    sub,
    username: typeof claims.preferred_username === 'string' ? claims.preferred_username : sub,
    roles: roles.filter(isRole),
    communities: communities.filter((c): c is string => typeof c === 'string'),
    ...(typeof authTime === 'number' ? { authTime } : {}),
  };
}

type Entry = { until: number; operator: Promise<Operator | undefined> };

/** A map that keeps its `max` most recently used entries. */
class Recent {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly max: number) {}
  get(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= now) return undefined;
    this.entries.set(key, entry);
    return entry;
  }
  set(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.max)
      this.entries.delete(this.entries.keys().next().value as string);
  }
  delete(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }
}

export function createOperatorTokens(options: OperatorTokenOptions): OperatorTokens {
  const cacheMs = options.cacheMs ?? 30_000;
  const refusalMs = options.refusalCacheMs ?? 5_000;
  const maxInFlight = options.maxInFlight ?? 32;
  const known = new Recent(options.maxEntries ?? 10_000);
  const refused = new Recent(options.maxRefusals ?? 1_000);
  /** checks of tokens not yet answered, by token hash: one call to the issuer each */
  const asking = new Map<string, Promise<Operator | undefined>>();

  const ask = async (token: string): Promise<Operator | undefined> => {
    let answer: globalThis.Response;
    try {
      answer = await fetch(options.userinfoUrl, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
    } catch (err) {
      throw new Unavailable(`the operators' issuer cannot be reached: ${(err as Error).message}`);
    }
    if (answer.status === 401 || answer.status === 403 || answer.status === 400) {
      await answer.body?.cancel();
      return undefined;
    }
    if (!answer.ok) {
      await answer.body?.cancel();
      throw new Unavailable(`the operators' issuer answered ${answer.status}`);
    }
    return operatorFrom((await answer.json()) as Record<string, unknown>);
  };

  return {
    verify(token) {
      const key = createHash('sha256').update(token).digest('base64url');
      const now = Date.now();
      const hit = known.get(key, now) ?? refused.get(key, now);
      if (hit) return hit.operator;
      const pending = asking.get(key);
      if (pending) return pending;
      if (asking.size >= maxInFlight)
        return Promise.reject(
          new Unavailable('too many operator tokens are being checked at once', 1),
        );
      const operator = ask(token);
      asking.set(key, operator);
      // an issuer that is away or busy is not a refusal: nothing is remembered, the next call asks again
      operator.then(
        (found) => {
          asking.delete(key);
          if (found) known.set(key, { until: Date.now() + cacheMs, operator });
          else refused.set(key, { until: Date.now() + refusalMs, operator });
        },
        () => asking.delete(key),
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
  /** the sign-in the token came from must be this recent (erasure): a step-up otherwise */
  recentLoginMs?: number;
}

/**
 * 401 asking for a fresh sign-in (RFC 9470): the client signs the operator in again (max_age)
 * and retries with the new token.
 */
export class StepUpRequired extends CredentialRefused {
  constructor(readonly maxAgeSeconds: number) {
    super(
      'stale',
      `this action needs a sign-in within the last ${Math.round(maxAgeSeconds / 60)} minutes`,
    );
  }
}

/** Refuses unless `operator` holds one of the rule's roles on the rule's community. */
export function enforceOperator(rule: OperatorRule, operator: Operator, req: Request): void {
  if (!operator.roles.some((role) => rule.roles.includes(role)))
    throw new AccessRefused(`operator role needed: ${rule.roles.join(' or ')}`);
  const community = rule.community?.(req);
  if (community !== undefined && !operatorCovers(operator, community))
    throw new AccessRefused(`operator does not act on community ${community}`);
  if (rule.recentLoginMs !== undefined) {
    const age = operator.authTime === undefined ? Infinity : Date.now() - operator.authTime * 1000;
    if (!(age <= rule.recentLoginMs)) throw new StepUpRequired(rule.recentLoginMs / 1000);
  }
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
      .catch((err: unknown) => {
        if (err instanceof StepUpRequired)
          res.set(
            'WWW-Authenticate',
            `Bearer error="insufficient_user_authentication", max_age=${err.maxAgeSeconds}`,
          );
        next(err);
      });
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
