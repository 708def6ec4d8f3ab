// What the faces found in an image (@idv/faces, SSD MobileNet v1) mean for its side. A selfie holds
// one face, whole and close enough to compare: none is no_face, a second person is multiple_faces,
// a face running off the picture's edge is face_cut_off, one too far away face_too_small. A
// document front or passport page (in the face journey) needs its portrait: none is no_face; a
// second, smaller face (the ghost image some cards print) is fine.
import type { CaptureSide } from '@idv/contracts';
import type { FaceBox } from '@idv/faces';
import type { ProblemFound } from './qualityRules.ts';

/**
 * A selfie's face, its longest side over the picture's shortest: at arm's length a phone's is
 * 0.35-0.6, a laptop camera's 0.25-0.4; under this the face is too far to compare.
 */
export const MIN_SELFIE_FACE = 0.2;
/** Another face counts as a second person from this size (its height over the picture's). */
export const SECOND_FACE_HEIGHT = 0.05;
/** A face whose box comes this close to an edge (a share of the side) runs off the picture. */
export const EDGE_MARGIN = 0.01;

/** The figures kept with the image's quality record. */
export function faceNotes(faces: readonly FaceBox[], ms: number): Record<string, number> {
  const main = faces[0];
  return {
    faceCount: faces.length,
    faceMs: ms,
    ...(main ? { faceScore: main.score, faceWidth: main.width, faceHeight: main.height } : {}),
  };
}

/** The problem the faces make for `side`, if any. */
export function faceProblem(
  side: CaptureSide,
  faces: readonly FaceBox[],
  /** the picture's size upright, in pixels: the face's size is judged against its shortest side */
  picture: { width: number; height: number },
): ProblemFound | undefined {
  const main = faces[0];
  if (side !== 'selfie')
    return main
      ? undefined
      : {
          code: 'no_face',
          message: `no portrait found on the ${side === 'passport' ? 'page' : 'front'}: photograph the whole ${side === 'passport' ? 'photo page' : 'front of the document'}`,
        };
  if (!main)
    return {
      code: 'no_face',
      message: 'no face found: face the camera in good light, the whole face in the frame',
    };
  if (faces.slice(1).some((f) => f.height >= SECOND_FACE_HEIGHT))
    return {
      code: 'multiple_faces',
      message: `${faces.length} faces found: only the person being checked may be in the picture`,
    };
  if (
    main.x < EDGE_MARGIN ||
    main.y < EDGE_MARGIN ||
    main.x + main.width > 1 - EDGE_MARGIN ||
    main.y + main.height > 1 - EDGE_MARGIN
  )
    return {
      code: 'face_cut_off',
      message: 'the face runs off the edge of the picture: the whole face must be in the frame',
    };
  const longest = Math.max(main.width * picture.width, main.height * picture.height);
  if (longest / Math.min(picture.width, picture.height) < MIN_SELFIE_FACE)
    return {
      code: 'face_too_small',
      message:
        'the face is too small to compare: hold the camera closer, your face filling the oval',
    };
  return undefined;
}
