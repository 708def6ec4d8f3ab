// What a Markdown guide claims about the tree, checked without a network: its relative links reach
// files, its #anchors reach headings (GitHub's slugs), and the repository paths it names in
// backticks exist (a package's README: its own `src/` paths too). Used by test/readme.test.ts for
// README.md, docs/*.md and the packages' READMEs.
import { dirname, join, normalize } from 'node:path';

/** The tree a guide is checked against: paths from the repository's root. */
export interface Tree {
  exists(path: string): boolean;
  read(path: string): string;
}

/** Top-level folders whose paths a guide names; a backticked word under one of them is a path. */
const TOP_FOLDERS = ['services', 'libs', 'contracts', 'infra', 'test', 'bench', 'docs'];
const ROOT_FILES = new Set(['Makefile', 'Dockerfile', 'docker-compose.yml', 'package.json']);
const PATH_WORD = new RegExp(`^(?:${TOP_FOLDERS.join('|')})/\\S*$`);

/**
 * A path segment that stands for any name (`<type>`, `{id}`, `*`, `…`) or for the file a reader
 * creates in the "Adding a connector" walkthrough (`new_provider`): the path is checked up to it.
 */
const PLACEHOLDER = /[<{*…]|\.\.\.|new_provider/;

/** Built by `make` and git-ignored, so absent from a fresh clone. */
const BUILD_OUTPUTS = ['services/capture-page/dist', 'services/console/dist'];

/** The text outside fenced code blocks, line by line (fence lines and their content blanked). */
export function proseLines(markdown: string): string[] {
  let fence = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      return '';
    }
    return fence ? '' : line;
  });
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a guide's headings make, repeated ones numbered as GitHub does (-1, -2...). */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const withoutCodeSpans = (line: string) => line.replace(/(`+)[\s\S]*?\1/g, '');

/** The targets of a guide's inline links and link definitions, outside code. */
export function linksOf(markdown: string): string[] {
  return proseLines(markdown).flatMap((line) => {
    const prose = withoutCodeSpans(line);
    const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
    const defined = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)];
    return [...inline, ...defined].map((m) => m[1]!);
  });
}

/** A package's README names its own files from its folder: `src/verify/verifyRoutes.ts`. */
const PACKAGE_PATH_WORD = /^(?:src|migrations)\/\S*$/;

/** The backticked words of a guide (a command's arguments one by one), trimmed of punctuation. */
function backticked(markdown: string): string[] {
  const text = proseLines(markdown).join('\n');
  const spans = [...text.matchAll(/(`+)([\s\S]*?)\1/g)].map((m) => m[2]!);
  return spans
    .flatMap((span) => span.split(/\s+/))
    .map((word) => word.replace(/^[("']+|[)"',.;:]+$/g, ''));
}

/** The repository paths a guide names in backticks, a command's path arguments included. */
export function pathsOf(markdown: string): string[] {
  return backticked(markdown).filter((word) => PATH_WORD.test(word) || ROOT_FILES.has(word));
}

/** The paths a package's README (`services/<name>/README.md`) names from its own folder. */
export function packagePathsOf(file: string, markdown: string): string[] {
  const folder = dirname(file);
  if (!/^(?:services|libs|infra)\/[^/]+$/.test(folder)) return [];
  return backticked(markdown)
    .filter((word) => PACKAGE_PATH_WORD.test(word))
    .map((word) => `${folder}/${word}`);
}

/** A path as far as it is fixed: up to its first placeholder segment. */
export function fixedPart(path: string): string {
  const segments = path.split('/');
  const open = segments.findIndex((segment) => PLACEHOLDER.test(segment));
  return open < 0 ? path : segments.slice(0, open).join('/');
}

const isBuilt = (path: string) =>
  BUILD_OUTPUTS.some((output) => path === output || path.startsWith(`${output}/`));

/** What is wrong in one guide (`file` from the repository's root): one line per broken claim. */
export function problemsOf(file: string, tree: Tree): string[] {
  const markdown = tree.read(file);
  const problems: string[] = [];
  for (const link of linksOf(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto: and the like
    const [target = '', anchor] = link.split('#', 2);
    const path = target === '' ? file : normalize(join(dirname(file), decodeURI(target)));
    if (!tree.exists(path)) {
      problems.push(`${file}: link to missing ${link}`);
      continue;
    }
    if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(tree.read(path)).has(anchor)) {
      problems.push(`${file}: link to ${link}, a heading ${path} does not have`);
    }
  }
  for (const named of [...pathsOf(markdown), ...packagePathsOf(file, markdown)]) {
    const path = fixedPart(named).replace(/\/$/, '');
    if (path === '' || isBuilt(path) || tree.exists(path)) continue;
    problems.push(`${file}: names \`${named}\`, which does not exist`);
  }
  return problems;
}
