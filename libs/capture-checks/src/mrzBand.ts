// Finds the MRZ band of a page photo, so the OCR reads its 2 or 3 lines instead of the half page
// (a tenth of the pixels, most of the OCR's time): the MRZ is a dense band of dark glyphs on a light
// ground at the very bottom of the page. Each row of the lower part is scored by its dark-to-light
// steps (glyph strokes; a table's grain and a camera's noise make few, a printed line many),
// the runs of busy rows are text lines, and the band is the lowest group of up to three lines set
// as closely as an MRZ's, padded. A page whose band is not found or does not read is read whole
// (imageTasks.ts, mrzReader.ts): the band only ever saves time.
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
