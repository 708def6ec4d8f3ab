// basic_face compares offline: a real selfie (a crop of the face-api package's sample photo) with a
// card whose portrait is the same face, or another person's. No sandbox.
import { jpeg } from '@idv/samples/captureImages';
import { realPortraitCard, realSelfie } from '@idv/samples/realFaces';
import { defineTestKit } from './kit.ts';

const base64 = async (image: Parameters<typeof jpeg>[0]) => (await jpeg(image)).toString('base64');

/** image1 the selfie of face 0, image2 a card with face `card`'s portrait. */
export async function facePairOf(card: 0 | 2): Promise<Record<string, unknown>> {
  return {
    type: 'face',
    image1: await base64(await realSelfie(0)),
    image2: await base64(await realPortraitCard(card)),
  };
}

export const kit = defineTestKit({
  type: 'basic_face',
  cases: [],
  healthy: async () => ({ kind: 'face_compare', config: {}, document: await facePairOf(0) }),
  configForEveryKind: null,
  endToEnd: [
    {
      kind: 'face_compare',
      config: () => ({}),
      match: () => facePairOf(0),
      mismatch: () => facePairOf(2),
    },
  ],
});
