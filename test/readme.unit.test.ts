// The README's configuration table is the one generated from the config definitions.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { configTable, END, START } from '../infra/dev/configTable.ts';
import { tableRows } from '@idv/testing/markdownTable';

describe('README', () => {
  it('lists every environment variable with its default and meaning, as the config defines them', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf(START), readme.indexOf(END));
    expect(tableRows(section)).to.deep.equal(tableRows(configTable()));
  });

  it('names only files that exist in its map of where things are', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const map = readme.slice(readme.indexOf('Where things are:'), readme.indexOf('## Admin CLI'));
    const named = [...map.matchAll(/`((?:libs|contracts|[a-z-]+\/src)\/[\w/.-]+\.ts)`/g)].map(
      (m) => m[1]!,
    );
    expect(named.length).to.be.greaterThan(5);
    const root = new URL('../', import.meta.url);
    const missing = named.filter(
      (path) => !existsSync(new URL(path, root)) && !existsSync(new URL(`services/${path}`, root)),
    );
    expect(missing).to.deep.equal([]);
  });
});
