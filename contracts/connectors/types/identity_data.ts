// identity_data: an identity data provider that checks an SSN or a person against its records.
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';

export const identity_data = defineConnector({
  type: 'identity_data',
  kinds: ['ssn_verify', 'person_verify'],
  configArrays: ['person_search'],
  config: Type.Object({ apiKey: opt(str()), url: opt(uri('provider endpoint')) }, strict),
  secrets: ['apiKey'],
  addresses: ['url'],
  deployment: { compute: 'io' },
});
