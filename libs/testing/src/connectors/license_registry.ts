// license_registry against the sandbox's licence registry (routes/dldv.ts).
import { expect } from 'chai';
import { defineTestKit } from './kit.ts';
import { testy } from './fixtures.ts';

const ids = { messageOriginatorId: 'IDV', messageDestinationId: 'REG' };
const licence = {
  documentType: 'DL',
  country: 'US',
  documentId: 'D0000001',
  state: 'CA',
  ...testy,
};

export const kit = defineTestKit({
  type: 'license_registry',
  cases: [
    {
      name: 'licence registry match',
      kind: 'dl_verify',
      config: () => ids,
      document: licence,
      status: 'verified',
      check: (r) => expect(r.fieldMatches).to.include({ firstName: true, dob: true }),
    },
    {
      name: 'licence registry mismatch',
      kind: 'dl_verify',
      config: () => ids,
      document: { ...licence, dob: '19990101' },
      status: 'not_verified',
      check: (r) => expect(r.reasons).to.deep.equal(['dob_mismatch']),
    },
    {
      name: 'licence registry unknown',
      kind: 'dl_verify',
      config: () => ids,
      document: { ...licence, documentId: 'D9999999' },
      status: 'not_verified',
      check: (r) => expect(r.reasons).to.deep.equal(['record_not_found']),
    },
    {
      name: 'licence registry fails over to the value-free secondary',
      kind: 'dl_verify',
      config: (s) => ({
        ...ids,
        primaryAuthUrl: `${s}/fault/status=503/dldv/primary/auth`,
        secondaryAuthUrl: `${s}/dldv/secondary/auth`,
        valueFreeDldvSecondaryUrl: `${s}/dldv/secondary/verify-value-free`,
      }),
      document: licence,
      status: 'verified',
    },
  ],
  configForEveryKind: () => ({ ...ids, passphrase: 'p' }),
  endToEnd: [
    {
      kind: 'dl_verify',
      config: () => ids,
      match: () => licence,
      mismatch: () => ({ ...licence, dob: '19990101' }),
    },
  ],
});
