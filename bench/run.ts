// `make bench`: runs every benchmark and writes bench/results/latest.md.
import { writeFileSync } from 'node:fs';
import { cryptoBenchmarks } from './crypto.bench.ts';
import { docverifyBenchmarks } from './docverify.bench.ts';
import { report } from './harness.ts';
import { oauthBenchmarks } from './oauth.bench.ts';
import { webhookBenchmarks } from './webhooks.bench.ts';

const comparisons = [
  ...(await cryptoBenchmarks()),
  ...(await docverifyBenchmarks()),
  ...(await oauthBenchmarks()),
  ...(await webhookBenchmarks()),
];
const markdown = report(comparisons);
writeFileSync(new URL('./results/latest.md', import.meta.url), markdown);
console.log(markdown);
