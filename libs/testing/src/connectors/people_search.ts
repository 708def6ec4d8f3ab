// people_search against the sandbox's people search provider (routes/peopleSearch.ts).
import { defineTestKit } from './kit.ts';
import { key, testy } from './fixtures.ts';

export const kit = defineTestKit({
  type: 'people_search',
  cases: [
    {
      name: 'people search person match',
      kind: 'person_verify',
      config: () => ({ apName: 'idv', apPassword: key, personSearchType: 'full' }),
      document: testy,
      status: 'verified',
    },
    {
      name: 'people search ssn unknown',
      kind: 'ssn_verify',
      config: () => ({ apName: 'idv', apPassword: key }),
      document: { ssn: '000-00-0042' },
      status: 'not_verified',
    },
  ],
  configForEveryKind: () => ({ apName: 'idv', apPassword: key }),
  endToEnd: [
    {
      kind: 'person_verify',
      config: () => ({ apName: 'idv', apPassword: key }),
      match: () => testy,
      mismatch: () => ({ ...testy, firstName: 'Nobody', lastName: 'Known' }),
    },
  ],
});
