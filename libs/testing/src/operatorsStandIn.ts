// A stand-in for the operators' issuer's userinfo endpoint (OPERATORS_USERINFO_URL) for suites
// that need an operator's bearer token without the operators' login: it answers `token-<name>`
// with the operator `name` (sub op-<name> unless given, username testy-<name>, signed in when it
// was named: auth_time) and 401 to any other token. It stands in for the outside issuer only; the
// gateways' checks of the answer stay the real ones
// (services/docverify-gateway/test/reviewOperatorLogin.test.ts goes through the real issuer).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperatorRole } from '@idv/auth';

export interface StandInOperator {
  roles: OperatorRole[];
  /** the communities it acts on; absent or empty: every one */
  communities?: string[];
  /**
   * the account's id (default op-<name>): names sharing one are one account whose grants differ
   * between its tokens, as after an admin changed them
   */
  sub?: string;
}

export interface OperatorsStandIn {
  /** what OPERATORS_USERINFO_URL is set to */
  url: string;
  /** the access token of the operator `name` */
  token(name: string): string;
  /** its Authorization header */
  bearer(name: string): Record<string, string>;
  /** adds (or re-grants) the operator `name`, e.g. once the suite's communities exist */
  set(name: string, operator: StandInOperator): void;
  close(): Promise<void>;
}

const userinfoOf = (name: string, o: StandInOperator) => ({
  sub: o.sub ?? `op-${name}`,
  preferred_username: `testy-${name}`,
  roles: o.roles,
  communities: o.communities ?? [],
  auth_time: Math.floor(Date.now() / 1000),
});

export async function startOperatorsStandIn(
  operators: Record<string, StandInOperator> = {},
): Promise<OperatorsStandIn> {
  const claims = new Map<string, ReturnType<typeof userinfoOf>>();
  const set = (name: string, operator: StandInOperator) =>
    claims.set(`token-${name}`, userinfoOf(name, operator));
  for (const [name, operator] of Object.entries(operators)) set(name, operator);
  const server = createServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const found = claims.get(token);
    res.writeHead(found ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(found ?? { error: 'invalid_token' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/userinfo`,
    token: (name) => `token-${name}`,
    bearer: (name) => ({ authorization: `Bearer token-${name}` }),
    set: (name, operator) => void set(name, operator),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
