// The README and the guides in docs/ say only true things about the tree: the configuration table
// is the generated one, the README's layout names every package and its map answers the four
// questions a newcomer asks first.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIG_TABLE_FILE, configTable, END, START } from '../infra/dev/configTable.ts';
import { tableRows } from './support/markdownTable.ts';

const root = new URL('../', import.meta.url);
const tree = {
  read: (path: string) => readFileSync(new URL(path, root), 'utf8'),
};

describe('README and docs/', () => {
  it('list every environment variable with its default and meaning, as the config defines them', () => {
    const guide = tree.read(CONFIG_TABLE_FILE);
    const section = guide.slice(guide.indexOf(START), guide.indexOf(END));
    expect(tableRows(section)).to.deep.equal(tableRows(configTable()));
  });

  it("lay out every folder of services/ and libs/ in the README's layout", () => {
    const readme = tree.read('README.md');
    const layout = readme.slice(readme.indexOf('## Layout'), readme.indexOf('## Where things are'));
    const listed = [...layout.matchAll(/^(services|libs)\/([\w-]+)/gm)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    const folders = ['services', 'libs'].flatMap((top) =>
      readdirSync(fileURLToPath(new URL(`${top}/`, root)), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${top}/${entry.name}`),
    );
    expect(listed).to.have.members(folders);
  });

  it('answer the four questions of its map of where things are', () => {
    const readme = tree.read('README.md');
    const map = readme.slice(readme.indexOf('## Where things are'), readme.indexOf('## Adding'));
    for (const question of [
      'Where is `POST /verify` validated?',
      'Where is a callback signed?',
      'How does a job flow?',
      'How do I add a connector?',
    ]) {
      expect(map, question).to.contain(`**${question}**`);
    }
    expect(map).to.contain('Webhook callbacks:').and.to.contain('Connector callbacks:');
  });
});
