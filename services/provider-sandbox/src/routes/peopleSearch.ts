// People search provider (person_verify, ssn_verify). Protocol (our own), HTTP Basic apName:apPassword:
//   POST /people/v1/search          body {searchType, person}   general search
//   POST /people/v1/verify          body {verifyType, person}   person.ssn required
//   POST /people/v1/person-search   body {personSearchType, person}   person.firstName and lastName required
//   200 {total, matches: [{score: 0..100, fields: {<submitted field>: boolean}}]} best first; total 0 when unknown.
//   401 bad credentials; 400 type or required person fields missing.
import { Router, type Request, type Response } from 'express';
import { compareFields, findPerson, isSandboxSecret } from '../fixtures.ts';
import { missingStrings, recordOf, refuse } from './refuse.ts';

function basicAuthOk(req: Request): boolean {
  const encoded = /^Basic (.+)$/.exec(req.get('authorization') ?? '')?.[1];
  if (!encoded) return false;
  const [name, password] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  return Boolean(name) && isSandboxSecret(password);
}

const search = (typeField: string, required: string[]) => (req: Request, res: Response) => {
  if (!basicAuthOk(req)) return refuse(res, 401, 'apName/apPassword not accepted');
  const person = recordOf(req.body?.person);
  const missing = [
    ...missingStrings(req.body, [typeField]),
    ...missingStrings(person, required).map((m) => `person.${m}`),
  ];
  if (missing.length > 0) return refuse(res, 400, `missing ${missing.join(', ')}`);
  const record = findPerson(person);
  if (!record) return res.json({ total: 0, matches: [] });
  const fields = compareFields({ ...record }, person);
  const values = Object.values(fields);
  const score = values.length ? (100 * values.filter(Boolean).length) / values.length : 0;
  res.json({ total: 1, matches: [{ score, fields }] });
};

export function peopleSearchRoutes(): Router {
  const router = Router();
  router.post('/people/v1/search', search('searchType', []));
  router.post('/people/v1/verify', search('verifyType', ['ssn']));
  router.post('/people/v1/person-search', search('personSearchType', ['firstName', 'lastName']));
  return router;
}
