// face_cloud against the sandbox's CompareFaces (routes/rekognition.ts), through the vendor SDK.
import { expect } from 'chai';
import {
  CLOUD_ACCESS_KEY,
  CLOUD_SECRET_KEY,
} from '../../../../services/provider-sandbox/src/fixtures.ts';
import { defineTestKit } from './kit.ts';
import { faces, image } from './fixtures.ts';

export const cloud = {
  awsAccessKey: CLOUD_ACCESS_KEY,
  awsSecretKey: CLOUD_SECRET_KEY,
  awsRegion: 'eu-west-1',
};

export const kit = defineTestKit({
  type: 'face_cloud',
  cases: [
    {
      name: 'face cloud match',
      kind: 'face_compare',
      config: () => cloud,
      document: faces('testy', 'testy'),
      status: 'verified',
      check: (r) => expect(r).to.include({ threshold: 80, score: 96.5 }),
    },
    {
      name: 'face cloud mismatch',
      kind: 'face_compare',
      config: () => cloud,
      document: faces('testy', 'fakey'),
      status: 'not_verified',
    },
    {
      name: 'face cloud no face in the source image',
      kind: 'face_compare',
      config: () => cloud,
      document: { image1: image('a cat'), image2: image('FACE:testy') },
      status: 'not_verified',
      check: (r) => expect(r.reasons).to.deep.equal(['no_face_detected']),
    },
  ],
  configForEveryKind: () => cloud,
  endToEnd: [
    {
      kind: 'face_compare',
      config: () => cloud,
      match: () => faces('testy', 'testy'),
      mismatch: () => faces('testy', 'fakey'),
    },
  ],
});
