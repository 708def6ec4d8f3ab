// `make bench`: runs every benchmark and writes bench/results/latest.md.
import { readFileSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { capacityBenchmarks } from './capacity.bench.ts';
import { captureUploadBenchmarks } from './capture-upload.bench.ts';
import { consoleBenchmarks } from './console.bench.ts';
import { cryptoBenchmarks } from './crypto.bench.ts';
import { docverifyBenchmarks } from './docverify.bench.ts';
import { report } from './harness.ts';
import { evaluateFaceCompare } from './faceCompareEval.ts';
import { facesBenchmarks } from './faces.bench.ts';
import { imagePathBenchmarks } from './image-path.bench.ts';
import { keysBenchmarks } from './keys.bench.ts';
import { noisyNeighbourBenchmarks } from './noisy-neighbour.bench.ts';
import { oauthBenchmarks } from './oauth.bench.ts';
import { reviewBenchmarks } from './review.bench.ts';
import { signInBenchmarks } from './signIn.bench.ts';
import { webhookIsolationBenchmarks } from './webhook-isolation.bench.ts';
import { webhookBenchmarks } from './webhooks.bench.ts';

const comparisons = [
  ...(await cryptoBenchmarks()),
  ...(await keysBenchmarks()),
  ...(await docverifyBenchmarks()),
  ...(await capacityBenchmarks()),
  ...(await oauthBenchmarks()),
  ...(await signInBenchmarks()),
  ...(await reviewBenchmarks()),
  ...(await consoleBenchmarks()),
  ...(await webhookBenchmarks()),
  ...(await webhookIsolationBenchmarks()),
  ...(await noisyNeighbourBenchmarks()),
  ...(await imagePathBenchmarks()),
  ...(await captureUploadBenchmarks()),
  ...(await facesBenchmarks()),
];
const markdown = report(comparisons);
writeFileSync(new URL('./results/latest.md', import.meta.url), markdown);
// basic_face's threshold evaluation (docs/connectors.md, "basic_face")
writeFileSync(new URL('./results/face-compare.md', import.meta.url), await evaluateFaceCompare());
// docs/benchmarks.md quotes the latest table between its markers
const guideUrl = new URL('../docs/benchmarks.md', import.meta.url);
const guide = readFileSync(guideUrl, 'utf8');
const [start, end] = ['<!-- bench:start -->', '<!-- bench:end -->'];
if (guide.includes(start) && guide.includes(end)) {
  const table = markdown.slice(markdown.indexOf('|'));
  const note = markdown.split('\n').find((line) => /cores/.test(line)) ?? '';
  const quoted = `${guide.slice(0, guide.indexOf(start) + start.length)}\n${note}\n\n${table}\n${guide.slice(guide.indexOf(end))}`;
  // formatted as `make lint` checks it
  const options = (await prettier.resolveConfig(guideUrl)) ?? {};
  writeFileSync(guideUrl, await prettier.format(quoted, { ...options, parser: 'markdown' }));
}
console.log(markdown);
