// `make bench`: runs every benchmark and writes bench/results/latest.md.
import { writeFileSync } from 'node:fs';
import { cryptoBenchmarks } from './crypto.bench.ts';
import { report } from './harness.ts';

const comparisons = [...(await cryptoBenchmarks())];
const markdown = report(comparisons);
writeFileSync(new URL('./results/latest.md', import.meta.url), markdown);
console.log(markdown);
