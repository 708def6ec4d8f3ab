// Licence registry (dl_verify): a driver licence data verification service with a token step.
//   POST /dldv/<site>/auth   body {messageOriginatorId, messageDestinationId}   200 {access_token, token_type, expires_in}
//   POST /dldv/<site>/verify             Bearer token; body {messageOriginatorId, messageDestinationId, transactionId,
//                                        licence: {documentId, state, firstName, lastName, dob, doe, doi, street, city, zipCode, ...}}
//        200 {transactionId, recordFound, matches: {<field>: "Y"|"N"}, record: {<field>: value}}
//   POST /dldv/<site>/verify-value-free  same, but the answer carries match indicators only, no record values.
//   401 no, unknown or expired token (tokens last expires_in, 300 s); 400 ids, transactionId,
//   licence.documentId or licence.state missing.
import { compareFields, LICENCES } from '../fixtures.ts';
import type { Call, Route } from '../router.ts';
import { missingStrings, recordOf, refuse } from './refuse.ts';
import { TokenBook } from './tokens.ts';

const IDS = ['messageOriginatorId', 'messageDestinationId'];

export function dldvRoutes(): Route[] {
  const tokens = new TokenBook('dldv', 300);
  const auth = ({ body }: Call) => {
    const missing = missingStrings(body, IDS);
    if (missing.length > 0) return refuse(400, `missing ${missing.join(', ')}`);
    const token = tokens.issue();
    return {
      status: 200,
      body: { access_token: token, token_type: 'Bearer', expires_in: tokens.lifetimeS },
    };
  };
  const verify = (valueFree: boolean) => (call: Call) => {
    if (!tokens.accepts(call.headers.authorization))
      return refuse(401, 'token is missing, unknown or expired');
    const body = recordOf(call.body);
    const missing = missingStrings(body, [...IDS, 'transactionId']);
    const licence = recordOf(body.licence);
    missing.push(...missingStrings(licence, ['documentId', 'state']).map((m) => `licence.${m}`));
    if (missing.length > 0) return refuse(400, `missing ${missing.join(', ')}`);
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
    const answer = { transactionId: body.transactionId, recordFound: Boolean(found), matches };
    return { status: 200, body: valueFree || !record ? answer : { ...answer, record } };
  };
  return [
    { method: 'POST', path: '/dldv/:site/auth', handle: auth },
    { method: 'POST', path: '/dldv/:site/verify', handle: verify(false) },
    { method: 'POST', path: '/dldv/:site/verify-value-free', handle: verify(true) },
  ];
}
