// Rebuilds MRZ lines from OCR symbols: the MRZ is a fixed-pitch grid, so each symbol is placed
// in its character cell by position, which undoes the OCR's habit of reading a '<' run as 'K<KL'.
import type { OcrLine } from './ocrEngine.ts';

/** Letters the English model reports, with middling confidence, where the glyph was a '<'. */
const FILLER_LOOKALIKES = new Set(['K', 'L', 'C', 'X']);
const FILLER_CONFIDENCE = 95;
const MIN_MRZ_SYMBOLS = 20;

/** Character cells per line for TD1 (3 lines), TD2 and TD3 (2 lines). */
function lineLength(lines: OcrLine[]): number {
  if (lines.length === 3) return 30;
  const first = lines[0]?.symbols ?? [];
  return first[0]?.text === 'P' || first.length >= 40 ? 44 : 36;
}

/** The MRZ lines read from the image, or undefined when nothing MRZ-like was found. */
export function mrzFromOcr(ocrLines: OcrLine[]): string[] | undefined {
  const long = ocrLines.filter((l) => l.symbols.length >= MIN_MRZ_SYMBOLS);
  if (long.length < 2) return undefined;
  // The MRZ sits at the bottom of the page: the last three lines if all are TD1-short (30 cells),
  // else the last two; a line of printed text above a TD3 MRZ must not turn it into a TD1.
  const td1 = long.length >= 3 && long.slice(-3).every((l) => l.symbols.length < 40);
  const lines = td1 ? long.slice(-3) : long.slice(-2);
  const length = lineLength(lines);
  const left = Math.min(...lines.map((l) => l.x0));
  // Every MRZ line has the same length; the widest (usually one ending in a check digit) sets the pitch.
  const pitch = Math.max(...lines.map((l) => l.x1 - left)) / length;
  return lines.map((line) => toCells(line, left, pitch, length));
}

function toCells(line: OcrLine, left: number, pitch: number, length: number): string {
  const cells: { text: string; confidence: number }[][] = Array.from({ length }, () => []);
  for (const symbol of line.symbols) {
    const centre = (symbol.x0 + symbol.x1) / 2;
    const index = Math.min(length - 1, Math.max(0, Math.floor((centre - left) / pitch)));
    cells[index]!.push({ text: symbol.text, confidence: symbol.confidence });
  }
  return cells.map(pickCharacter).join('');
}

function pickCharacter(candidates: { text: string; confidence: number }[]): string {
  if (candidates.length === 0 || candidates.some((c) => c.text === '<')) return '<';
  const best = candidates.reduce((a, b) => (b.confidence > a.confidence ? b : a));
  if (FILLER_LOOKALIKES.has(best.text) && best.confidence < FILLER_CONFIDENCE) return '<';
  return best.text.slice(0, 1);
}
