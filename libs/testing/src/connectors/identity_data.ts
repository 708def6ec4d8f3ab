// identity_data against the sandbox's identity data provider (routes/identityData.ts).
import { defineTestKit } from './kit.ts';
import { key, testy } from './fixtures.ts';

const nobody = { ...testy, firstName: 'Nobody', lastName: 'Known' };

export const kit = defineTestKit({
  type: 'identity_data',
  cases: [
    {
      name: 'identity data ssn match',
      kind: 'ssn_verify',
      config: () => ({ apiKey: key }),
      document: testy,
      status: 'verified',
    },
    {
      name: 'identity data ssn mismatch',
      kind: 'ssn_verify',
      config: () => ({ apiKey: key }),
      document: { ...testy, ssn: '000-00-0009' },
      status: 'not_verified',
    },
    {
      name: 'identity data unknown person',
      kind: 'person_verify',
      config: (s) => ({ apiKey: key, url: `${s}/identity/v1/verify` }),
      document: { firstName: 'Nobody', lastName: 'Known', dob: '20000101' },
      status: 'not_verified',
    },
  ],
  configForEveryKind: () => ({ apiKey: key }),
  endToEnd: [
    {
      kind: 'ssn_verify',
      config: () => ({ apiKey: key }),
      match: () => testy,
      mismatch: () => ({ ...testy, ssn: '000-00-0009' }),
    },
    {
      kind: 'person_verify',
      tag: 'id-person',
      config: () => ({ apiKey: key }),
      match: () => testy,
      mismatch: () => nobody,
    },
  ],
});
