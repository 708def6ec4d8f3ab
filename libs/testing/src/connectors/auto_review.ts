// auto_review against the sandbox's review provider (routes/review.ts).
import { expect } from 'chai';
import { defineTestKit } from './kit.ts';
import { dl, image, key } from './fixtures.ts';

export const kit = defineTestKit({
  type: 'auto_review',
  cases: [
    {
      name: 'auto review passes',
      kind: 'dl_authenticate',
      config: () => ({ apiKey: key }),
      document: dl('testy'),
      status: 'verified',
    },
    {
      name: 'auto review fails expired',
      kind: 'idcard_authenticate',
      config: () => ({ apiKey: key }),
      document: { type: 'idcard', front_image: image('DOC:expired') },
      status: 'not_verified',
      check: (r) => expect(r.checks).to.deep.equal({ genuine: true, notExpired: false }),
    },
  ],
  configForEveryKind: () => ({ apiKey: key }),
  endToEnd: [
    {
      kind: 'dl_authenticate',
      config: () => ({ apiKey: key }),
      match: () => dl('testy'),
      mismatch: () => dl('expired'),
    },
    {
      kind: 'idcard_authenticate',
      tag: 'auto-idcard',
      config: () => ({ apiKey: key }),
      match: () => ({ type: 'idcard', front_image: image('DOC:testy') }),
      mismatch: () => ({ type: 'IdCard', front_image: image('DOC:expired') }),
    },
  ],
});
