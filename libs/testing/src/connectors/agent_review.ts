// agent_review against the sandbox's review provider (routes/review.ts).
import { expect } from 'chai';
import { defineTestKit } from './kit.ts';
import { dl, key } from './fixtures.ts';

export const kit = defineTestKit({
  type: 'agent_review',
  cases: [
    {
      name: 'agent review approves',
      kind: 'dl_authenticate',
      config: () => ({ apiKey: key }),
      document: dl('testy'),
      status: 'verified',
      check: (r) =>
        expect(r.extracted).to.include({ lastName: 'McTestface', documentNumber: 'D0000001' }),
    },
    {
      name: 'agent review pending',
      kind: 'dl_authenticate',
      config: () => ({ apiKey: key }),
      document: dl('blurry'),
      status: 'inconclusive',
    },
  ],
  configForEveryKind: () => ({ apiKey: key }),
  endToEnd: [
    {
      kind: 'dl_authenticate',
      config: () => ({ apiKey: key }),
      match: () => dl('testy'),
      mismatch: () => dl('forged'),
    },
  ],
});
