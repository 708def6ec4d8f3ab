// An MRZ read from a page image end to end: OCR lines -> character grid -> repair; and whether
// what was read holds together (every ICAO 9303 check digit valid), for a capture check.
import { parse } from 'mrz';
import { mrzFromOcr } from './mrzLines.ts';
import { repairMrz } from './mrzRepair.ts';
import type { OcrEngine } from './ocrEngine.ts';

/** The repaired MRZ lines of a (greyscale) page image, or undefined when none is found. */
export async function readMrz(engine: OcrEngine, png: Buffer): Promise<string[] | undefined> {
  const lines = mrzFromOcr(await engine.readLines(png));
  return lines && repairMrz(lines);
}

/** True when `lines` parse as an MRZ (TD1, TD2 or TD3) whose check digits all hold. */
export function mrzDigitsHold(lines: string[]): boolean {
  try {
    const { details } = parse(lines, { autocorrect: true });
    const digits = details.filter((d) => /check digit/i.test(d.label));
    return digits.length > 0 && digits.every((d) => d.valid);
  } catch {
    return false;
  }
}
