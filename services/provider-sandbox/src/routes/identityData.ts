// Identity data provider (ssn_verify, person_verify). Protocol (our own):
//   POST /identity/v1/verify   header x-api-key: <key>
//   body {check: "ssn"|"person", person: {firstName, lastName, dob (yyyy-MM-dd), ssn (digits), street, city, state, zipCode, ...}}
//   200 {requestId, found: boolean, fields: {<submitted field>: boolean}, score: 0..100}
//   401 bad key; 400 check unknown, person missing, or person check without firstName/lastName/dob.
import { randomUUID } from 'node:crypto';
import { compareFields, findPerson, isSandboxSecret } from '../fixtures.ts';
import type { Call, Route } from '../router.ts';
import { missingStrings, recordOf, refuse } from './refuse.ts';

function verify({ headers, body: given }: Call) {
  if (!isSandboxSecret(headers['x-api-key'])) return refuse(401, 'x-api-key is not valid');
  const body = recordOf(given);
  if (body.check !== 'ssn' && body.check !== 'person') {
    return refuse(400, 'check must be ssn or person');
  }
  const person = recordOf(body.person);
  const needed = body.check === 'person' ? ['firstName', 'lastName', 'dob'] : ['ssn'];
  const missing = missingStrings(person, needed);
  if (missing.length > 0) return refuse(400, `person lacks ${missing.join(', ')}`);
  const record = findPerson(person);
  const fields = record ? compareFields({ ...record }, person) : {};
  const values = Object.values(fields);
  const score = values.length ? (100 * values.filter(Boolean).length) / values.length : 0;
  return { status: 200, body: { requestId: randomUUID(), found: Boolean(record), fields, score } };
}

export function identityDataRoutes(): Route[] {
  return [{ method: 'POST', path: '/identity/v1/verify', handle: verify }];
}
