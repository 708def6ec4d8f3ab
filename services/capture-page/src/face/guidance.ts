// What the selfie camera tells the person, from the faces the detector finds in each frame: one
// face, centred in the oval, big enough, whole and still; and when it has been so for STEADY_MS,
// that the photo can be taken. The sizes follow the server's selfie checks
// (libs/capture-checks/src/faceRules.ts) with a margin, so a photo taken here passes them.
import type { FaceBox } from './detector.ts';

export type FaceAdvice =
  'noFace' | 'manyFaces' | 'tooSmall' | 'tooBig' | 'offCentre' | 'moving' | 'steady';

/** The frame's size and the preview's, which shows the middle of it (object-fit: cover). */
export interface View {
  frameWidth: number;
  frameHeight: number;
  viewWidth: number;
  viewHeight: number;
}

/** The face's longest side over the frame's shortest: under this, "move closer" (server: 0.2). */
export const MIN_FACE = 0.23;
/** The face's height over the preview's: over this, "move back". */
export const MAX_FACE = 0.7;
/** Another face counts as a second person from this height over the frame's (as the server). */
const SECOND_FACE = 0.05;
/** A face box this close to the preview's edge (a share of it) runs off it. */
const EDGE = 0.01;
/** The oval (styles.css `.selfie .guide`, inset 12% 18%): its half axes in shares of the preview. */
const OVAL = { rx: 0.32, ry: 0.38 };
/** The face's centre is centred when within this share of the oval's half axes of its centre. */
const CENTRED = 0.6;
/** Between two detections the face moves less than this share of the preview, or it is moving. */
const STILL = 0.04;
/** How long one good face has to stay still before the photo is taken. */
export const STEADY_MS = 1000;

/** The part of the frame the preview shows: offset and size, in shares of the frame. */
function visiblePart(view: View) {
  const scale = Math.max(view.viewWidth / view.frameWidth, view.viewHeight / view.frameHeight);
  const width = Math.min(1, view.viewWidth / (view.frameWidth * scale));
  const height = Math.min(1, view.viewHeight / (view.frameHeight * scale));
  return { x: (1 - width) / 2, y: (1 - height) / 2, width, height };
}

/** The face's box in shares of the preview. */
function inPreview(face: FaceBox, view: View): FaceBox {
  const part = visiblePart(view);
  return {
    x: (face.x - part.x) / part.width,
    y: (face.y - part.y) / part.height,
    width: face.width / part.width,
    height: face.height / part.height,
    score: face.score,
  };
}

/** Whether a box from `start` of `size` (shares of the preview) stays off its edges. */
const within = (start: number, size: number) => start >= EDGE && start + size <= 1 - EDGE;

/** The advice for one frame's `faces` (largest first), not counting movement. */
export function adviceFor(faces: readonly FaceBox[], view: View): FaceAdvice {
  const [main, ...others] = faces;
  if (!main) return 'noFace';
  if (others.some((f) => f.height >= SECOND_FACE)) return 'manyFaces';
  const longest = Math.max(main.width * view.frameWidth, main.height * view.frameHeight);
  if (longest / Math.min(view.frameWidth, view.frameHeight) < MIN_FACE) return 'tooSmall';
  const face = inPreview(main, view);
  const whole = within(face.x, face.width) && within(face.y, face.height);
  if (!whole || face.height > MAX_FACE) return 'tooBig';
  const dx = (face.x + face.width / 2 - 0.5) / OVAL.rx;
  const dy = (face.y + face.height / 2 - 0.5) / OVAL.ry;
  return Math.hypot(dx, dy) > CENTRED ? 'offCentre' : 'steady';
}

/** Whether the face moved between two detections (its centre or its size). */
function moved(before: FaceBox, now: FaceBox): boolean {
  const shift = Math.hypot(
    now.x + now.width / 2 - (before.x + before.width / 2),
    now.y + now.height / 2 - (before.y + before.height / 2),
  );
  return shift > STILL || Math.abs(now.height - before.height) > STILL;
}

export interface Guidance {
  advice: FaceAdvice;
  /** one good face has been still for STEADY_MS: take the photo */
  ready: boolean;
}

/** Follows the detections of one camera session: each call gives the advice for the newest. */
export function faceGuide(): (faces: readonly FaceBox[], view: View, at: number) => Guidance {
  let last: FaceBox | undefined;
  let steadySince: number | undefined;
  return (faces, view, at) => {
    const before = last;
    last = faces[0];
    let advice = adviceFor(faces, view);
    if (advice === 'steady' && before && last && moved(before, last)) advice = 'moving';
    if (advice === 'steady') steadySince ??= at;
    else steadySince = undefined;
    return { advice, ready: steadySince !== undefined && at - steadySince >= STEADY_MS };
  };
}
