// face_compare_b against the sandbox's face match provider (routes/faceMatch.ts).
import { defineTestKit } from './kit.ts';
import { faces, key } from './fixtures.ts';

export const kit = defineTestKit({
  type: 'face_compare_b',
  cases: [
    {
      name: 'face compare B match',
      kind: 'face_compare',
      config: () => ({ apiKey: key }),
      document: faces('testy', 'testy'),
      status: 'verified',
    },
    {
      name: 'face compare B mismatch',
      kind: 'face_compare',
      config: () => ({ apiKey: key }),
      document: faces('testy', 'fakey'),
      status: 'not_verified',
    },
  ],
  configForEveryKind: () => ({ apiKey: key }),
  endToEnd: [
    {
      kind: 'face_compare',
      config: () => ({ apiKey: key }),
      match: () => faces('testy', 'testy'),
      mismatch: () => faces('testy', 'fakey'),
    },
  ],
});
