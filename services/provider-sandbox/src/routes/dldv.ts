// Licence registry (dl_verify): a driver licence data verification service with a token step.
//   POST /dldv/<site>/auth   body {messageOriginatorId, messageDestinationId}   200 {access_token, token_type, expires_in}
//   POST /dldv/<site>/verify             Bearer token; body {messageOriginatorId, messageDestinationId, transactionId,
//                                        licence: {documentId, state, firstName, lastName, dob, doe, doi, street, city, zipCode, ...}}
//        200 {transactionId, recordFound, matches: {<field>: "Y"|"N"}, record: {<field>: value}}
//   POST /dldv/<site>/verify-value-free  same, but the answer carries match indicators only, no record values.
//   401 no or unknown token; 400 ids, transactionId, licence.documentId or licence.state missing.
import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { compareFields, LICENCES } from '../fixtures.ts';
import { missingStrings, recordOf, refuse } from './refuse.ts';

const IDS = ['messageOriginatorId', 'messageDestinationId'];

export function dldvRoutes(): Router {
  const router = Router();
  const tokens = new Set<string>();
  router.post('/dldv/:site/auth', (req, res) => {
    const missing = missingStrings(req.body, IDS);
    if (missing.length > 0) return refuse(res, 400, `missing ${missing.join(', ')}`);
    const token = `dldv-${randomUUID()}`;
    tokens.add(token);
    res.json({ access_token: token, token_type: 'Bearer', expires_in: 300 });
  });
  const verify = (valueFree: boolean) => (req: Request, res: Response) => {
    const token = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
    if (!token || !tokens.has(token)) return refuse(res, 401, 'token is missing or unknown');
    const missing = missingStrings(req.body, [...IDS, 'transactionId']);
    const licence = recordOf(req.body?.licence);
    missing.push(...missingStrings(licence, ['documentId', 'state']).map((m) => `licence.${m}`));
    if (missing.length > 0) return refuse(res, 400, `missing ${missing.join(', ')}`);
    const found = LICENCES.find(
      (l) => l.documentId === licence.documentId && l.state === String(licence.state).toUpperCase(),
    );
    const record = found && {
      ...found.person,
      documentId: found.documentId,
      state: found.state,
      doe: found.doe,
      doi: found.doi,
    };
    const compared = record ? compareFields(record, licence) : {};
    const matches = Object.fromEntries(
      Object.entries(compared).map(([k, v]) => [k, v ? 'Y' : 'N']),
    );
    const answer = { transactionId: req.body.transactionId, recordFound: Boolean(found), matches };
    res.json(valueFree || !record ? answer : { ...answer, record });
  };
  router.post('/dldv/:site/verify', verify(false));
  router.post('/dldv/:site/verify-value-free', verify(true));
  return router;
}
