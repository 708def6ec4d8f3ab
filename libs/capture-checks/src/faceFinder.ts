// Is there a face in this picture? A heuristic on the decoded pixels, with no model: skin-coloured
// regions (YCbCr chroma) of a face's size and shape (an upright oval: taller than wide, filling
// about 3/4 of its box), with darker non-skin holes on both sides of its upper half (the eyes and
// brows). Honest limits (README): a greyscale image has no skin colour to find, so it is reported
// as `colour: false` and the caller decides; strong coloured light, a face turned sideways or a
// skin-coloured background touching the face defeat it; a skin-coloured oval with two dark spots
// passes. It is a capture hint, never an identity check.
import type { Bitmap } from './measures.ts';

/** The longest side of the colour working copy: enough for a face of 1/10 of the picture. */
const FACE_WORKING_SIZE = 200;
/** Part of the pixels that must carry colour (max-min of RGB over 25) for skin to be looked for. */
const MIN_COLOUR_SHARE = 0.05;

export interface FaceFinding {
  /** a face-like region was found */
  found: boolean;
  /** the image carries enough colour for the skin test to mean anything */
  colour: boolean;
  /** the largest face-like region's share of the image (0 when none) */
  share: number;
}

interface Region {
  area: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Plane {
  width: number;
  height: number;
  skin: Uint8Array;
  luma: Float32Array;
}

/** A colour copy scaled down (box filter), as a skin mask and a luminance plane. */
function skinPlane(bitmap: Bitmap): Plane & { colourShare: number } {
  const scale = Math.min(1, FACE_WORKING_SIZE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const sums = new Float64Array(width * height * 3);
  const counts = new Uint32Array(width * height);
  for (let y = 0; y < bitmap.height; y++) {
    const row = Math.min(height - 1, Math.floor(y * scale)) * width;
    for (let x = 0; x < bitmap.width; x++) {
      const i = (y * bitmap.width + x) * 4;
      const cell = row + Math.min(width - 1, Math.floor(x * scale));
      sums[cell * 3]! += bitmap.data[i]!;
      sums[cell * 3 + 1]! += bitmap.data[i + 1]!;
      sums[cell * 3 + 2]! += bitmap.data[i + 2]!;
      counts[cell]! += 1;
    }
  }
  const skin = new Uint8Array(width * height);
  const luma = new Float32Array(width * height);
  let coloured = 0;
  for (let cell = 0; cell < counts.length; cell++) {
    const n = Math.max(1, counts[cell]!);
    const [r, g, b] = [sums[cell * 3]! / n, sums[cell * 3 + 1]! / n, sums[cell * 3 + 2]! / n];
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
    const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
    luma[cell] = y;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 25) coloured += 1;
    // the classic chroma box of skin (Chai & Ngan), lit enough to be seen, and skin's orange-red
    // hue (red clearly over green, green over blue), which keeps beige and yellow walls out
    const box = y > 40 && cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173;
    skin[cell] = box && r - g >= 12 && g >= b ? 1 : 0;
  }
  return { width, height, skin, luma, colourShare: coloured / counts.length };
}

/** 4-connected regions of skin, by flood fill. */
function skinRegions(plane: Plane): Region[] {
  const { width, height, skin } = plane;
  const seen = new Uint8Array(skin.length);
  const stack = new Int32Array(skin.length);
  const regions: Region[] = [];
  for (let start = 0; start < skin.length; start++) {
    if (!skin[start] || seen[start]) continue;
    const region: Region = { area: 0, x0: width, y0: height, x1: 0, y1: 0 };
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const at = stack[--top]!;
      const x = at % width;
      const y = (at - x) / width;
      region.area += 1;
      region.x0 = Math.min(region.x0, x);
      region.x1 = Math.max(region.x1, x);
      region.y0 = Math.min(region.y0, y);
      region.y1 = Math.max(region.y1, y);
      const around = [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, at - width, at + width];
      for (const next of around)
        if (next >= 0 && next < skin.length && skin[next] && !seen[next]) {
          seen[next] = 1;
          stack[top++] = next;
        }
    }
    regions.push(region);
  }
  return regions;
}

/** An upright oval: taller than wide (a neck may lengthen it), filling most of its box. */
function faceShaped(region: Region): boolean {
  const w = region.x1 - region.x0 + 1;
  const h = region.y1 - region.y0 + 1;
  const fill = region.area / (w * h);
  return h / w >= 0.8 && h / w <= 2.4 && fill >= 0.45 && fill <= 0.95;
}

/**
 * Eyes: in the band from 15% to 55% of the region's height, non-skin pixels clearly darker than
 * its skin, with skin on both sides in their row (holes in the face, not hair around it), on the
 * left half and on the right half.
 */
function hasEyes(plane: Plane, region: Region): boolean {
  const { width, skin, luma } = plane;
  let skinLuma = 0;
  let skinCount = 0;
  for (let y = region.y0; y <= region.y1; y++)
    for (let x = region.x0; x <= region.x1; x++)
      if (skin[y * width + x]) {
        skinLuma += luma[y * width + x]!;
        skinCount += 1;
      }
  const dark = (0.8 * skinLuma) / Math.max(1, skinCount);
  const h = region.y1 - region.y0 + 1;
  const middle = (region.x0 + region.x1) / 2;
  const holes = [0, 0];
  for (let y = region.y0 + Math.floor(h * 0.15); y <= region.y0 + Math.ceil(h * 0.55); y++) {
    let first = -1;
    let last = -1;
    for (let x = region.x0; x <= region.x1; x++)
      if (skin[y * width + x]) {
        if (first < 0) first = x;
        last = x;
      }
    for (let x = first + 1; x < last; x++) {
      const at = y * width + x;
      if (!skin[at] && luma[at]! < dark) holes[x < middle ? 0 : 1]! += 1;
    }
  }
  const least = Math.max(2, region.area * 0.0015);
  return holes[0]! >= least && holes[1]! >= least;
}

/** Looks for a face whose skin covers at least `minShare` of the picture. */
export function findFace(bitmap: Bitmap, minShare: number): FaceFinding {
  const plane = skinPlane(bitmap);
  const colour = plane.colourShare >= MIN_COLOUR_SHARE;
  if (!colour) return { found: false, colour, share: 0 };
  const total = plane.width * plane.height;
  let share = 0;
  for (const region of skinRegions(plane)) {
    if (region.area / total < minShare || !faceShaped(region) || !hasEyes(plane, region)) continue;
    share = Math.max(share, region.area / total);
  }
  return { found: share > 0, colour, share: Math.round(share * 1000) / 1000 };
}
