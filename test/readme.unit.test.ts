// The README and the guides in docs/ say only true things about the tree: the configuration table
// is the generated one, the README's layout names every package, and every relative link, #anchor
// and backticked repository path of README.md and docs/*.md exists (test/markdownChecks.ts).
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIG_TABLE_FILE, configTable, END, START } from '../infra/dev/configTable.ts';
import {
  anchorsOf,
  fixedPart,
  linksOf,
  pathsOf,
  problemsOf,
  slugOf,
  type Tree,
} from './markdownChecks.ts';
import { tableRows } from '@idv/testing/markdownTable';

const root = new URL('../', import.meta.url);
const tree: Tree = {
  exists: (path) => existsSync(new URL(path, root)),
  read: (path) => readFileSync(new URL(path, root), 'utf8'),
};
const markdownIn = (folder: string) =>
  readdirSync(fileURLToPath(new URL(`${folder}/`, root)))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${folder}/${name}`);
/** The README, the guides and the READMEs of packages and infra folders (services/<name>/...). */
const guides = [
  'README.md',
  ...markdownIn('docs'),
  ...['services', 'libs', 'infra'].flatMap((top) =>
    readdirSync(fileURLToPath(new URL(`${top}/`, root)), { withFileTypes: true })
      .filter(
        (entry) =>
          entry.isDirectory() && existsSync(new URL(`${top}/${entry.name}/README.md`, root)),
      )
      .map((entry) => `${top}/${entry.name}/README.md`),
  ),
];

describe('README and docs/', () => {
  it('list every environment variable with its default and meaning, as the config defines them', () => {
    const guide = tree.read(CONFIG_TABLE_FILE);
    const section = guide.slice(guide.indexOf(START), guide.indexOf(END));
    expect(tableRows(section)).to.deep.equal(tableRows(configTable()));
  });

  it('link only files and headings that exist, and name only paths that exist', () => {
    expect(guides).to.include.members([
      'docs/README.md',
      'docs/configuration.md',
      'services/docverify-gateway/README.md',
    ]);
    expect(guides.flatMap((file) => problemsOf(file, tree))).to.deep.equal([]);
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

describe('the Markdown checks', () => {
  const fake = (files: Record<string, string>): Tree => ({
    exists: (path) => path in files || Object.keys(files).some((f) => f.startsWith(`${path}/`)),
    read: (path) => files[path] ?? '',
  });

  it("make GitHub's anchors", () => {
    expect(slugOf('OAuth 2.0 / OpenID Connect (oauth service, port 8080)')).to.equal(
      'oauth-20--openid-connect-oauth-service-port-8080',
    );
    expect(slugOf('What `make run` prints')).to.equal('what-make-run-prints');
    expect(slugOf('Asynchronous `/verify`')).to.equal('asynchronous-verify');
    expect(slugOf('basic_face')).to.equal('basic_face');
    expect([...anchorsOf('# A\n## B\n```\n# not a heading\n```\n## B\n')]).to.deep.equal([
      'a',
      'b',
      'b-1',
    ]);
  });

  it('read links outside code, and paths in backticks, commands included', () => {
    expect(linksOf('[a](x.md#y) `[b](no.md)` [c]: z.md\n```\n[d](no.md)\n```')).to.deep.equal([
      'x.md#y',
    ]);
    expect(
      pathsOf('`libs/db/src/sqlState.ts`, `tsx infra/render.ts --write` and `data.dump`'),
    ).to.deep.equal(['libs/db/src/sqlState.ts', 'infra/render.ts']);
    expect(fixedPart('contracts/connectors/types/<type>.ts')).to.equal(
      'contracts/connectors/types',
    );
  });

  it('find a wrong path, a missing file and a missing heading', () => {
    const files = {
      'docs/a.md': '# A\n\nSee [b](b.md#nowhere), [c](c.md), `libs/db/src/nothing.ts`.\n',
      'docs/b.md': '# B\n',
      'libs/db/src/sqlState.ts': '',
    };
    expect(problemsOf('docs/a.md', fake(files))).to.deep.equal([
      'docs/a.md: link to b.md#nowhere, a heading docs/b.md does not have',
      'docs/a.md: link to missing c.md',
      'docs/a.md: names `libs/db/src/nothing.ts`, which does not exist',
    ]);
  });
});
