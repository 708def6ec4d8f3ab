// The selfie camera's face guidance without a browser: the advice for each kind of frame (a 16:9
// camera frame in the page's 3:4 preview) and the photo taken only after a second of stillness.
import { expect } from 'chai';
import type { FaceBox } from '../src/face/detector.ts';
import { adviceFor, faceGuide, STEADY_MS, type View } from '../src/face/guidance.ts';

/** A landscape camera in the portrait preview: the middle 42% of the frame's width shows. */
const VIEW: View = { frameWidth: 1280, frameHeight: 720, viewWidth: 300, viewHeight: 400 };
/** A face box centred at (cx, cy) of the frame, `height` of its height, 3:4 like a face. */
const face = (cx: number, cy: number, height: number, score = 0.8): FaceBox => {
  const width = (height * 0.75 * 720) / 1280;
  return { x: cx - width / 2, y: cy - height / 2, width, height, score };
};

describe('selfie face guidance', () => {
  const cases: [string, FaceBox[], ReturnType<typeof adviceFor>][] = [
    ['no face', [], 'noFace'],
    ['two people', [face(0.5, 0.45, 0.4), face(0.6, 0.5, 0.2)], 'manyFaces'],
    [
      'a tiny far-off face beside is no second person',
      [face(0.5, 0.45, 0.4), face(0.55, 0.2, 0.03)],
      'steady',
    ],
    ['far away', [face(0.5, 0.45, 0.15)], 'tooSmall'],
    ['too close', [face(0.5, 0.5, 0.8)], 'tooBig'],
    ['cut off at the top', [face(0.5, 0.15, 0.4)], 'tooBig'],
    ['off to the side', [face(0.6, 0.5, 0.35)], 'offCentre'],
    ['low in the oval', [face(0.5, 0.75, 0.35)], 'offCentre'],
    ['centred, big enough', [face(0.5, 0.45, 0.4)], 'steady'],
    // the fake camera's portrait (@idv/samples/idDocuments cameraFrame), as the detector finds it
    [
      'the browser suite fake camera',
      [{ x: 0.397, y: 0.17, width: 0.189, height: 0.335, score: 0.53 }],
      'steady',
    ],
  ];
  for (const [name, faces, advice] of cases)
    it(`${name}: ${advice}`, () => expect(adviceFor(faces, VIEW)).to.equal(advice));

  it('takes the photo once one good face has been still for a second, not before', () => {
    const guide = faceGuide();
    const good = face(0.5, 0.45, 0.4);
    expect(guide([good], VIEW, 0)).to.deep.equal({ advice: 'steady', ready: false });
    expect(guide([good], VIEW, STEADY_MS / 2)).to.deep.equal({ advice: 'steady', ready: false });
    expect(guide([good], VIEW, STEADY_MS)).to.deep.equal({ advice: 'steady', ready: true });
  });

  it('a moving face says "hold still" and starts the second again', () => {
    const guide = faceGuide();
    guide([face(0.5, 0.45, 0.4)], VIEW, 0);
    expect(guide([face(0.45, 0.45, 0.4)], VIEW, 400)).to.deep.equal({
      advice: 'moving',
      ready: false,
    });
    expect(guide([face(0.45, 0.45, 0.4)], VIEW, 1000)).to.deep.equal({
      advice: 'steady',
      ready: false,
    });
    expect(guide([face(0.45, 0.45, 0.4)], VIEW, 2000).ready).to.equal(true);
  });

  it('a face lost on the way starts the second again', () => {
    const guide = faceGuide();
    guide([face(0.5, 0.45, 0.4)], VIEW, 0);
    expect(guide([], VIEW, 500).advice).to.equal('noFace');
    expect(guide([face(0.5, 0.45, 0.4)], VIEW, 1100).ready).to.equal(false);
  });
});
