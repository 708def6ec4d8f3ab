// face_compare_a against the sandbox's face detect-and-verify API (routes/faceApi.ts).
import { expect } from 'chai';
import { defineTestKit } from './kit.ts';
import { faces, image, key } from './fixtures.ts';

const account = (s: string, apiKey = key) => ({
  apiKey,
  url: s,
  urlVerify: `${s}/face/v1.0/verify`,
});
const detectOptions = (s: string) => ({
  accounts: [account(s)],
  detectionModel: 'detection_03',
  recognitionModel: 'recognition_04',
  returnFaceLandmarks: false,
  faceIdTimeToLive: 120,
});

export const kit = defineTestKit({
  type: 'face_compare_a',
  cases: [
    {
      name: 'face compare A match',
      kind: 'face_compare',
      config: detectOptions,
      document: faces('testy', 'testy'),
      status: 'verified',
      check: (r) => expect(r.threshold).to.equal(50),
    },
    {
      name: 'face compare A mismatch by URL',
      kind: 'face_compare',
      config: detectOptions,
      document: {
        liveIdUrl: 'https://bucket.example/FACE:testy',
        image2Url: 'https://bucket.example/FACE:fakey',
      },
      status: 'not_verified',
    },
    {
      name: 'face compare A no face',
      kind: 'face_compare',
      config: detectOptions,
      document: { image1: image('a cat'), image2: image('FACE:testy') },
      status: 'not_verified',
      check: (r) => expect(r.reasons).to.deep.equal(['no_face_detected']),
    },
    {
      name: 'face compare A fails over to the next account',
      kind: 'face_compare',
      config: (s) => ({ accounts: [account(s, 'revoked'), account(s)] }),
      document: faces('testy', 'testy'),
      status: 'verified',
    },
  ],
  configForEveryKind: (s) => ({ accounts: [account(s)] }),
  endToEnd: [
    {
      kind: 'face_compare',
      config: (s) => ({ accounts: [account(s)] }),
      match: () => faces('testy', 'testy'),
      mismatch: () => faces('testy', 'fakey'),
    },
  ],
});
