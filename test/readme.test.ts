// The README's configuration table is the one generated from the config definitions.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { configTable, END, START } from '../infra/dev/configTable.ts';

/** Table rows without the padding prettier adds. */
const rows = (table: string) =>
  table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .split('|')
        .map((cell) => cell.trim())
        .join('|'),
    );

describe('README', () => {
  it('lists every environment variable with its default and meaning, as the config defines them', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf(START), readme.indexOf(END));
    expect(rows(section)).to.deep.equal(rows(configTable()));
  });
});
