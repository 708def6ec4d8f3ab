// document_auth_a against the sandbox's document provider A (routes/documentAuthA.ts).
import { expect } from 'chai';
import { defineTestKit } from './kit.ts';
import { dl, faces, key } from './fixtures.ts';

export const kit = defineTestKit({
  type: 'document_auth_a',
  cases: [
    {
      name: 'document auth A passes',
      kind: 'dl_authenticate',
      config: () => ({
        airAccessKey: key,
        airSecretToken: key,
        scan_channelResponse: ['DQL_Final_Surname_Result'],
      }),
      document: dl('testy'),
      status: 'verified',
      check: (r) => expect(r.extracted).to.deep.equal({ lastName: 'McTestface' }),
    },
    {
      name: 'document auth A forged',
      kind: 'dl_authenticate',
      config: () => ({ airAccessKey: key, airSecretToken: key }),
      document: dl('forged'),
      status: 'not_verified',
    },
    {
      name: 'document auth A face',
      kind: 'face_compare',
      config: () => ({ faceAPIKey: key }),
      document: faces('testy', 'testy'),
      status: 'verified',
    },
  ],
  configForEveryKind: () => ({
    airAccessKey: key,
    airSecretToken: key,
    faceAPIKey: key,
    scan_channelConfiguration: {},
  }),
  endToEnd: [
    {
      kind: 'dl_authenticate',
      config: () => ({ airAccessKey: key, airSecretToken: key }),
      match: () => dl('testy'),
      mismatch: () => dl('forged'),
    },
  ],
});
