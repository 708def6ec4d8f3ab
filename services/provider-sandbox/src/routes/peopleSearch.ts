// People search provider (person_verify, ssn_verify). Protocol (our own), HTTP Basic apName:apPassword:
//   POST /people/v1/search          body {searchType, person}   general search
//   POST /people/v1/verify          body {verifyType, person}   person.ssn required
//   POST /people/v1/person-search   body {personSearchType, person}   person.firstName and lastName required
//   200 {total, matches: [{score: 0..100, fields: {<submitted field>: boolean}}]} best first; total 0 when unknown.
//   401 bad credentials; 400 type or required person fields missing.
import { compareFields, findPerson, isSandboxSecret } from '../fixtures.ts';
import type { Call, Route } from '../router.ts';
import { missingStrings, recordOf, refuse } from './refuse.ts';

function basicAuthOk({ headers }: Call): boolean {
  const encoded = /^Basic (.+)$/.exec(headers.authorization ?? '')?.[1];
  if (!encoded) return false;
  const [name, password] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  return Boolean(name) && isSandboxSecret(password);
}

const search = (typeField: string, required: string[]) => (call: Call) => {
  if (!basicAuthOk(call)) return refuse(401, 'apName/apPassword not accepted');
  const body = recordOf(call.body);
  const person = recordOf(body.person);
  const missing = [
    ...missingStrings(body, [typeField]),
    ...missingStrings(person, required).map((m) => `person.${m}`),
  ];
  if (missing.length > 0) return refuse(400, `missing ${missing.join(', ')}`);
  const record = findPerson(person);
  if (!record) return { status: 200, body: { total: 0, matches: [] } };
  const fields = compareFields({ ...record }, person);
  const values = Object.values(fields);
  const score = values.length ? (100 * values.filter(Boolean).length) / values.length : 0;
  return { status: 200, body: { total: 1, matches: [{ score, fields }] } };
};

export function peopleSearchRoutes(): Route[] {
  return [
    { method: 'POST', path: '/people/v1/search', handle: search('searchType', []) },
    { method: 'POST', path: '/people/v1/verify', handle: search('verifyType', ['ssn']) },
    {
      method: 'POST',
      path: '/people/v1/person-search',
      handle: search('personSearchType', ['firstName', 'lastName']),
    },
  ];
}
