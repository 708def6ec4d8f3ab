// Finds the MRZ band of a page photo, so the OCR reads its 2 or 3 lines instead of the half page
// (a tenth of the pixels, most of the OCR's time): the MRZ is a dense band of dark glyphs on a light
// ground at the very bottom of the page. Each row of the lower part is scored by its dark-to-light
// steps (glyph strokes; a table's grain and a camera's noise make few, a printed line many),
// the runs of busy rows are text lines, and the band is the lowest group of up to three lines set
// as closely as an MRZ's, padded. Its lines are then levelled (a page photographed a few degrees
// askew: tesseract's single block reads no MRZ past about 1.5 degrees, a levelled band up to 4.5).
// A page whose band is not found or does not read is read whole (imageTasks.ts, mrzReader.ts): the
// band only ever saves time.
import type { Bitmap } from './measures.ts';

/** Rows and columns of the bitmap the band covers: [top, bottom) and [left, right). */
export interface MrzBand {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** A step of this much grey (0..255) between pixels two apart is a glyph's edge. */
const EDGE = 48;
/** A row whose steps are under this share of the busiest row's is not text. */
const BUSY_SHARE = 0.35;
/** MRZ lines stand at most this many line heights apart (a page's text above, further). */
const LINE_GAP = 1.5;
/** Lines in an MRZ: TD1 has 3, TD2 and TD3 have 2. */
const MAX_LINES = 3;
/** Padding around the band, in line heights: tesseract wants a margin of ground. */
const PADDING = 0.8;

const luma = (d: Bitmap['data'], i: number) => (d[i]! * 77 + d[i + 1]! * 150 + d[i + 2]! * 29) >> 8;

/** Dark-to-light steps of each row from `top` down, and where in each row the first and last lie. */
function rowSteps(bitmap: Bitmap, top: number) {
  const { width, height, data } = bitmap;
  const steps = new Uint32Array(height - top);
  const first = new Int32Array(height - top).fill(width);
  const last = new Int32Array(height - top).fill(-1);
  for (let y = top; y < height; y++) {
    const row = y * width * 4;
    let count = 0;
    for (let x = 2; x < width; x++) {
      if (luma(data, row + x * 4) - luma(data, row + (x - 2) * 4) < EDGE) continue;
      count += 1;
      first[y - top] = Math.min(first[y - top]!, x);
      last[y - top] = x;
      x += 2; // one stroke's edge counts once
    }
    steps[y - top] = count;
  }
  return { steps, first, last };
}

interface Line {
  top: number;
  bottom: number;
}

/** Runs of busy rows, top to bottom (row indexes from the part's top). */
function textLines(steps: Uint32Array): Line[] {
  const busiest = Math.max(0, ...steps);
  if (busiest < 20) return [];
  const lines: Line[] = [];
  let start = -1;
  for (let y = 0; y <= steps.length; y++) {
    const busy = y < steps.length && steps[y]! >= busiest * BUSY_SHARE;
    if (busy && start < 0) start = y;
    if (!busy && start >= 0) {
      if (y - start >= 3) lines.push({ top: start, bottom: y });
      start = -1;
    }
  }
  return lines;
}

/** The lowest group of up to MAX_LINES lines each within LINE_GAP line heights of the next. */
function lowestGroup(lines: Line[]): Line[] {
  const group = lines.slice(-1);
  for (let i = lines.length - 2; i >= 0 && group.length < MAX_LINES; i--) {
    const [line, below] = [lines[i]!, group[0]!];
    const height = Math.max(line.bottom - line.top, below.bottom - below.top);
    if (below.top - line.bottom > height * LINE_GAP) break;
    group.unshift(line);
  }
  return group;
}

/** The MRZ band in the rows from `top` down, or undefined when no text line is found there. */
export function findMrzBand(bitmap: Bitmap, top = 0): MrzBand | undefined {
  const { steps, first, last } = rowSteps(bitmap, top);
  const group = lowestGroup(textLines(steps));
  if (group.length === 0) return undefined;
  const [upper, lower] = [group[0]!, group.at(-1)!];
  const lineHeight = Math.max(...group.map((l) => l.bottom - l.top));
  const pad = Math.ceil(lineHeight * PADDING);
  let [left, right] = [bitmap.width, 0];
  for (let y = upper.top; y < lower.bottom; y++) {
    left = Math.min(left, first[y]!);
    right = Math.max(right, last[y]!);
  }
  return {
    top: Math.max(0, top + upper.top - pad),
    bottom: Math.min(bitmap.height, top + lower.bottom + pad),
    left: Math.max(0, left - pad),
    right: Math.min(bitmap.width, right + pad),
  };
}

/** The band's pixels, a bitmap of their own (a copy: a band is a few hundred rows). */
export function cropBand(bitmap: Bitmap, band: MrzBand): Bitmap {
  const [width, height] = [band.right - band.left, band.bottom - band.top];
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((band.top + y) * bitmap.width + band.left) * 4;
    data.set(bitmap.data.subarray(from, from + width * 4), y * width * 4);
  }
  return { width, height, data };
}

/** Slopes tried for the band's lines, rise over run: about 4.5 degrees either way. */
const MAX_SLOPE = 0.08;
const SLOPE_STEP = 0.005;

/**
 * The slope of the band's lines: the one under which its glyph edges fall into the fewest, fullest
 * rows (the sum of squares of the rows' counts is highest when the lines lie flat).
 */
export function bandSlope(band: Bitmap): number {
  const points: number[] = [];
  const { width, height, data } = band;
  for (let y = 0; y < height; y++)
    for (let x = 2; x < width; x++) {
      const i = (y * width + x) * 4;
      if (luma(data, i) - luma(data, i - 8) < EDGE) continue;
      points.push(x, y);
      x += 2;
    }
  let [best, bestScore] = [0, -1];
  const rows = new Float64Array(height + Math.ceil(width * MAX_SLOPE) * 2 + 2);
  const offset = Math.ceil(width * MAX_SLOPE) + 1;
  for (let slope = -MAX_SLOPE; slope <= MAX_SLOPE + 1e-9; slope += SLOPE_STEP) {
    rows.fill(0);
    for (let p = 0; p < points.length; p += 2)
      rows[Math.round(points[p + 1]! - slope * points[p]!) + offset]! += 1;
    let score = 0;
    for (const count of rows) score += count * count;
    // ties (a band without lines) stay flat
    if (score > bestScore * 1.0001) [best, bestScore] = [slope, score];
  }
  return Math.abs(best) < SLOPE_STEP / 2 ? 0 : best;
}

/**
 * `band` with each column moved up or down so that lines of `slope` lie flat (a shear), by a
 * fraction of a row where it falls between two (linear), so the glyphs keep their strokes.
 */
export function levelBand(band: Bitmap, slope: number): Bitmap {
  if (slope === 0) return band;
  const { width, height, data } = band;
  const out = new Uint8Array(data.length);
  const centre = width / 2;
  const row = (y: number) => Math.min(height - 1, Math.max(0, y));
  for (let x = 0; x < width; x++) {
    const shift = slope * (x - centre);
    const whole = Math.floor(shift);
    const part = shift - whole;
    for (let y = 0; y < height; y++) {
      const [a, b] = [(row(y + whole) * width + x) * 4, (row(y + whole + 1) * width + x) * 4];
      const to = (y * width + x) * 4;
      for (let c = 0; c < 4; c++) out[to + c] = data[a + c]! * (1 - part) + data[b + c]! * part;
    }
  }
  return { width, height, data: out };
}
