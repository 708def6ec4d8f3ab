// One measurement of the image path in a process of its own (image-path.bench.ts starts it), so its
// resident-memory high-water mark (VmHWM) belongs to that measurement alone. Modes:
//   decode <file> <runs>            the bare decode of the file (sharp, this thread): the baseline
//   check <side> <file> <runs>      the capture check as a capture-check worker runs it: one image
//                                   thread (QualityPool), the measures, then the content checks of
//                                   the face journey, the MRZ OCR in its own thread
//   bombs <photo> <name=file>...    each hostile file through the same check (its thread started
//                                   on the photo first), timed
// Prints one JSON line: latencies in ms, the verdicts, and memory in MiB.
import { readFileSync } from 'node:fs';
import type { CaptureSide } from '@idv/contracts';
import {
  captureChecker,
  imageContentChecks,
  MrzReader,
  QualityPool,
} from '@idv/capture-checks/engine';
import { admitImage, DEFAULT_IMAGE_LIMITS } from '@idv/images';
import { createLogger } from '@idv/observability';
import sharp from 'sharp';
import { decodeImage } from '../libs/images/src/decode.ts';

const mib = (field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) /
  1024;

const FACE_JOURNEY = 'KYC_WITH_FACE_COMPARISON' as const;
const journeyOf = (side: CaptureSide) => ({
  journeyType: FACE_JOURNEY,
  documentType: side === 'passport' ? ('PASSPORT' as const) : ('DL' as const),
});

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = process.hrtime.bigint();
  const result = await work();
  return [result, Number(process.hrtime.bigint() - started) / 1e6];
}

async function bareDecode(file: string, runs: number) {
  const bytes = readFileSync(file);
  const before = mib('VmRSS');
  const latencies: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const [, ms] = await timed(async () => {
      const header = admitImage(bytes, DEFAULT_IMAGE_LIMITS);
      return decodeImage(bytes, header, DEFAULT_IMAGE_LIMITS);
    });
    if (i > 0) latencies.push(ms); // the first loads libvips' code
  }
  return { latencies, beforeMib: before, peakMib: mib('VmHWM') };
}

/** The capture check of the worker: pool, OCR and content checks with generous time limits. */
function checker() {
  const logger = createLogger({ service: 'bench', level: 'silent' });
  const pool = new QualityPool(1, 30_000);
  const mrz = new MrzReader({ timeoutMs: 30_000 });
  // the OCR's share of a check, timed around the reader's one entry
  const ocrMs: number[] = [];
  const read = mrz.check.bind(mrz);
  mrz.check = async (png) => {
    const [outcome, ms] = await timed(() => read(png));
    ocrMs.push(ms);
    return outcome;
  };
  const check = captureChecker(pool, imageContentChecks({ pool, mrz, logger, timeoutMs: 30_000 }));
  const close = () => Promise.all([pool.close(), mrz.close()]);
  return { check, close, ocrMs };
}

/** The photo at 1000 px: starts the image thread and the OCR engine without a 12 MP high-water. */
const warmUpImage = (bytes: Buffer) => sharp(bytes).resize(1000).jpeg({ quality: 90 }).toBuffer();

async function captureCheck(side: CaptureSide, file: string, runs: number) {
  const bytes = readFileSync(file);
  const { check, close, ocrMs } = checker();
  try {
    await check(side, await warmUpImage(bytes), journeyOf(side));
    ocrMs.length = 0;
    const before = mib('VmRSS');
    const [first, firstMs] = await timed(() => check(side, bytes, journeyOf(side)));
    const peakOfOne = mib('VmHWM');
    const latencies = [firstMs];
    const verdicts = new Set([first.problems.map((p) => p.code).join(',') || 'accepted']);
    for (let i = 1; i < runs; i++) {
      // a copy with one byte changed: the thread's kept pixels are not reused across checks
      const copy = Buffer.from(bytes);
      copy[copy.length - 3]! ^= i & 1 ? 1 : 2;
      const [report, ms] = await timed(() => check(side, copy, journeyOf(side)));
      latencies.push(ms);
      verdicts.add(report.problems.map((p) => p.code).join(',') || 'accepted');
    }
    return {
      latencies,
      ocrMs,
      verdicts: [...verdicts],
      notes: first.notes,
      beforeMib: before,
      peakOfOneMib: peakOfOne,
      peakMib: mib('VmHWM'),
    };
  } finally {
    await close();
  }
}

async function bombs(warmFile: string, files: string[]) {
  const { check, close } = checker();
  try {
    await check('front', await warmUpImage(readFileSync(warmFile)), journeyOf('front'));
    const refusals = [];
    for (const named of files) {
      const [name, file] = named.split('=') as [string, string];
      const bytes = readFileSync(file);
      const before = mib('VmRSS');
      let slowest = 0;
      let verdict = '';
      for (let i = 0; i < 5; i++) {
        const [report, ms] = await timed(() => check('front', bytes, journeyOf('front')));
        slowest = Math.max(slowest, ms);
        verdict = report.problems.map((p) => `${p.code}: ${p.message}`).join('; ') || 'accepted';
      }
      refusals.push({
        name,
        bytes: bytes.length,
        slowestMs: slowest,
        verdict,
        grewMib: mib('VmHWM') - before,
      });
    }
    return { refusals, peakMib: mib('VmHWM') };
  } finally {
    await close();
  }
}

const [mode, ...args] = process.argv.slice(2);
const result =
  mode === 'decode'
    ? await bareDecode(args[0]!, Number(args[1]))
    : mode === 'check'
      ? await captureCheck(args[0] as CaptureSide, args[1]!, Number(args[2]))
      : await bombs(args[0]!, args.slice(1));
process.stdout.write(`${JSON.stringify(result)}\n`);
