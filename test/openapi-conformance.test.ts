// Every operation of the three services' /openapi.json held to the live service: a valid call answers
// the documented success status, and the usual bad calls answer what they should and the operation
// documents it: no credentials 401, a body breaking the contract 400, an unknown id 404, a licence
// below the level rule 403.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CALLS, type CallRule, type ValidCall } from '@idv/testing/conformanceCalls';
import {
  startConformanceWorld,
  type Caller,
  type ConformanceWorld,
  type Service,
} from '@idv/testing/conformanceWorld';
import { credentialHeaders, newCaller, seal, shared } from '@idv/testing/independentClient';

interface DocumentedOperation {
  key: string;
  statuses: number[];
  success: number;
  /** further success statuses a request option selects ("success when ...") */
  alternatives: number[];
  secured: boolean;
  jsonBody: boolean;
}

type Document = {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, { description?: string }>;
        security?: unknown;
        requestBody?: unknown;
      }
    >
  >;
};

async function documented(w: ConformanceWorld, service: Service): Promise<DocumentedOperation[]> {
  const doc = (await (await fetch(`${w.url(service)}/openapi.json`)).json()) as Document;
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const statuses = Object.keys(op.responses).map(Number);
      const success = statuses.filter(
        (s) => s >= 200 && s < 400 && op.responses[s]?.description === 'success',
      );
      const alternatives = statuses.filter((s) => s >= 200 && s < 400 && !success.includes(s));
      expect(success, `${method} ${path}: one documented success status`).to.have.length(1);
      for (const s of alternatives)
        expect(op.responses[s]?.description, `${method} ${path} ${s}`).to.match(/^success when /);
      return {
        key: `${method.toUpperCase()} ${path}`,
        statuses,
        success: success[0]!,
        alternatives,
        secured: op.security !== undefined,
        jsonBody: op.requestBody !== undefined,
      };
    }),
  );
  // the key reset changes the key every later call is made with: last
  return ops.sort(
    (a, b) => Number(a.key.includes('/servicekey/')) - Number(b.key.includes('/servicekey/')),
  );
}

const CREDENTIALS = ['publickey', 'licensekey', 'requestid', 'license', 'authorization'];

/** Sends a call built from `call`, with `change` applied: another caller, path value or body. */
async function send(
  w: ConformanceWorld,
  service: Service,
  key: string,
  call: ValidCall,
  change: {
    caller?: Caller;
    bare?: boolean;
    lastParam?: string;
    body?: string;
    form?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: string }> {
  const [method, template] = key.split(' ') as [string, string];
  const params = { ...call.params };
  const names = [...template.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
  if (change.lastParam !== undefined) params[names.at(-1)!] = change.lastParam;
  const path = template.replace(
    /\{([A-Za-z]+)\}/g,
    (_, name: string) => params[name] ?? `missing-${name}`,
  );
  const caller = change.caller ?? call.caller;
  let headers: Record<string, string> = { ...call.headers };
  let body: string | URLSearchParams | Uint8Array | undefined;
  if (call.form || change.form) body = new URLSearchParams(change.form ?? call.form);
  if (call.body !== undefined) body = JSON.stringify(call.body);
  if (call.raw) {
    body = new Uint8Array(call.raw.bytes);
    headers['content-type'] = call.raw.type;
  }
  if (caller === 'license') headers.license = w.verify.platform.licences.system;
  else if (caller && call.encrypted !== undefined) {
    const servicePublicKey = (
      (await (await fetch(`${w.url(service)}/publickeys`)).json()) as { publicKey: string }
    ).publicKey;
    const party = newCaller();
    headers = {
      ...headers,
      ...credentialHeaders({
        licenseKey: w.verify.platform.licences[caller],
        servicePublicKey,
        caller: party,
      }),
    };
    body = JSON.stringify({
      data: seal(shared(party, servicePublicKey), JSON.stringify(call.encrypted)),
    });
  } else if (caller) headers = { ...headers, ...(await w.headers(service, caller)) };
  if (change.body !== undefined) body = change.body;
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  if (change.bare) for (const name of CREDENTIALS) delete headers[name];
  headers = { ...headers, ...change.headers };
  const res = await fetch(`${w.url(service)}${path}${call.query ? `?${call.query}` : ''}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, body: await res.text() };
}

/** The usual bad calls that apply to an operation, with the status each must answer. */
function badCalls(op: DocumentedOperation, rule: CallRule, call: ValidCall) {
  const bad: [string, number, Parameters<typeof send>[4]][] = [];
  const carriesCredentials =
    call.caller !== undefined ||
    Object.keys(call.headers ?? {}).some((h) => CREDENTIALS.includes(h));
  if (carriesCredentials) bad.push(['no credentials', rule.bareStatus ?? 401, { bare: true }]);
  if (op.jsonBody) bad.push(['a body breaking the contract', 400, { body: '{"unexpected":true}' }]);
  if (rule.badForm) bad.push(['a form breaking the protocol', 400, { form: rule.badForm }]);
  if (op.key.includes('{') && rule.unknown !== false)
    bad.push([
      'an unknown id',
      404,
      {
        lastParam: randomUUID(),
        ...(call.caller && call.caller !== 'license' ? { caller: 'system' as const } : {}),
      },
    ]);
  if (rule.lowLevel) bad.push([`a ${rule.lowLevel} licence`, 403, { caller: rule.lowLevel }]);
  return bad;
}

describe('OpenAPI documents against the live services', function () {
  this.timeout(180_000);
  let w: ConformanceWorld;
  before(async () => {
    w = await startConformanceWorld();
  });
  after(async () => w?.stop());

  for (const service of ['oauth', 'docverify', 'webhooks'] as const) {
    it(`${service}: each operation answers its documented success, and each usual bad call a documented status`, async () => {
      const problems: string[] = [];
      const ops = await documented(w, service);
      for (const op of ops) {
        const rule = CALLS[service][op.key];
        if (!rule) {
          problems.push(`${op.key}: no valid call in libs/testing/src/conformanceCalls.ts`);
          continue;
        }
        const call = await rule.valid(w, service);
        const bads = badCalls(op, rule, call);
        // the bad calls first: the valid one may consume what it names (a delete, a key reset)
        for (const [what, wanted, change] of bads) {
          const { status, body } = await send(w, service, op.key, call, change);
          if (status !== wanted)
            problems.push(`${op.key}, ${what}: ${status} (wanted ${wanted}) ${body.slice(0, 200)}`);
          else if (!op.statuses.includes(status))
            problems.push(
              `${op.key}, ${what}: ${status} is not documented (${op.statuses.join(', ')})`,
            );
        }
        for (const alternative of op.alternatives) {
          const headers = rule.variants?.[alternative];
          if (!headers) {
            problems.push(`${op.key}: documents ${alternative} but its rule has no variant for it`);
            continue;
          }
          const { status, body } = await send(w, service, op.key, await rule.valid(w, service), {
            headers,
          });
          if (status !== alternative)
            problems.push(
              `${op.key}, variant ${JSON.stringify(headers)}: ${status}, documented ${alternative} ${body.slice(0, 200)}`,
            );
        }
        const { status, body } = await send(w, service, op.key, call);
        if (status !== op.success)
          problems.push(
            `${op.key}, valid call: ${status}, documented ${op.success} ${body.slice(0, 200)}`,
          );
      }
      expect(problems).to.deep.equal([]);
    });
  }
});
