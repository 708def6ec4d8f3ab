// One measurement of the face models in a process of its own (faces.bench.ts starts it, pinned to
// one core), so its resident-memory high-water mark (VmHWM) is its own. Modes:
//   decode <maxSide> <runs> <file>...   decode each file scaled to maxSide (sharp): the baseline
//   detect <runs> <file>                the capture checks' face task: the 12 MP photo decoded at
//                                       their working size (2000 px), then SSD on it (@idv/faces)
//   pair <runs> <selfie> <document>     basic_face's work on one pair: both decoded at 1280 px,
//                                       described (landmarks, descriptor) and compared
// Prints one JSON line: latencies in ms, what was found, memory in MiB.
import { readFileSync } from 'node:fs';
import { describeFaces, DESCRIBE_SIZE, detectFaces, faceDistance, faceEngine } from '@idv/faces';
import { admitImage, DEFAULT_IMAGE_LIMITS } from '@idv/images';
import { TASK_WORKING_SIZE } from '../libs/capture-checks/src/imageTasks.ts';
import { decodeImage } from '../libs/images/src/decode.ts';

const mib = (field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) /
  1024;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = process.hrtime.bigint();
  const result = await work();
  return [result, Number(process.hrtime.bigint() - started) / 1e6];
}

const decoded = (bytes: Buffer, maxSide: number) =>
  decodeImage(bytes, admitImage(bytes, DEFAULT_IMAGE_LIMITS), DEFAULT_IMAGE_LIMITS, { maxSide });

/** `work` `runs` times after one unmeasured run (libvips' code, the models' first use). */
async function repeated<T>(runs: number, work: () => Promise<T>) {
  const [first] = await timed(work);
  const before = mib('VmRSS');
  const latencies: number[] = [];
  for (let i = 0; i < runs; i++) latencies.push((await timed(work))[1]);
  return { first, latencies, beforeMib: before, peakMib: mib('VmHWM') };
}

const [mode, ...args] = process.argv.slice(2);
let out: unknown;
if (mode === 'decode') {
  const [maxSide, runs, ...files] = args;
  const bytes = files.map((f) => readFileSync(f));
  out = await repeated(Number(runs), async () => {
    for (const b of bytes) await decoded(b, Number(maxSide));
  });
} else if (mode === 'detect') {
  const bytes = readFileSync(args[1]!);
  const loadStarted = Date.now();
  await faceEngine('detector');
  const loadMs = Date.now() - loadStarted;
  const run = await repeated(Number(args[0]), async () =>
    detectFaces(await decoded(bytes, TASK_WORKING_SIZE)),
  );
  out = { ...run, first: run.first.length, loadMs };
} else if (mode === 'pair') {
  const [selfie, document] = [readFileSync(args[1]!), readFileSync(args[2]!)];
  const loadStarted = Date.now();
  await faceEngine('descriptor');
  const loadMs = Date.now() - loadStarted;
  const run = await repeated(Number(args[0]), async () => {
    const [a] = await describeFaces(await decoded(selfie, DESCRIBE_SIZE));
    const [b] = await describeFaces(await decoded(document, DESCRIBE_SIZE));
    return a && b ? faceDistance(a.descriptor, b.descriptor) : undefined;
  });
  out = { ...run, loadMs };
} else throw new Error(`unknown mode ${mode}`);
console.log(JSON.stringify(out));
