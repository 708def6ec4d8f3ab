// document_auth_b against the sandbox's document provider B (routes/documentAuthB.ts).
import { expect } from 'chai';
import { defineTestKit } from './kit.ts';
import { dl, faces, image, key } from './fixtures.ts';

const client = { clientId: 'c', clientSecretKey: key, apiKey: key };
const flow = { documentType: 'DL', seldocTypeFilter: [], confirm: false, scores: true };

export const kit = defineTestKit({
  type: 'document_auth_b',
  cases: [
    {
      name: 'document auth B passport',
      kind: 'ppt_authenticate',
      config: () => ({
        ...client,
        tokenConfiguration: {
          ppt: {
            flowId: 'f1',
            documentType: 'passport',
            seldocTypeFilter: [],
            confirm: true,
            scores: true,
          },
        },
      }),
      document: { type: 'ppt', front_image: image('DOC:testy') },
      status: 'verified',
      check: (r) => expect(r.score).to.equal(91),
    },
    {
      name: 'document auth B face mismatch',
      kind: 'face_compare',
      config: () => ({ ...client, faceAPIKey: key }),
      document: faces('testy', 'fakey'),
      status: 'not_verified',
    },
  ],
  configForEveryKind: () => ({
    ...client,
    faceAPIKey: key,
    tokenConfiguration: { dl: { flowId: 'f', ...flow } },
  }),
  endToEnd: [
    {
      kind: 'dl_authenticate',
      config: () => client,
      match: () => dl('testy'),
      mismatch: () => dl('forged'),
    },
    {
      kind: 'ppt_authenticate',
      tag: 'docb-ppt',
      config: () => client,
      match: () => ({ type: 'PPT', front_image: image('DOC:testy') }),
      mismatch: () => ({ type: 'ppt', front_image: image('DOC:forged') }),
    },
  ],
});
