// people_search: a people search provider (person search and SSN verification, HTTP Basic).
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';

export const people_search = defineConnector({
  type: 'people_search',
  kinds: ['person_verify', 'ssn_verify'],
  configArrays: ['person_search'],
  config: Type.Object(
    {
      apName: opt(str()),
      apPassword: opt(str()),
      searchType: opt(str()),
      url: opt(uri('search endpoint')),
      verifyType: opt(str()),
      verifyUrl: opt(uri('verify endpoint')),
      personSearchType: opt(str()),
      personSearchUrl: opt(uri('person search endpoint')),
    },
    strict,
  ),
  secrets: ['apPassword'],
  addresses: ['url', 'verifyUrl', 'personSearchUrl'],
  deployment: { compute: 'io' },
});
