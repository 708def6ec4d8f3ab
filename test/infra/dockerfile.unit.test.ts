// The Dockerfile checked by reading it (no Docker engine here): each web app Vite builds comes
// from a stage of its own, only its dist/ copied into the runtime image, to where the service
// serving it looks by default; the image exposes every HTTP service's port.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { HTTP_SERVICES } from '../../infra/k8s/manifests.ts';
import { ConsoleConfig } from '../../services/console/src/config.ts';
import { DocverifyGatewayConfig } from '../../services/docverify-gateway/src/config.ts';

/** Each stage's instructions (continuation lines joined), by its name. */
function stages(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    const from = /^FROM \S+ AS (\S+)$/.exec(line);
    if (from) found.set(from[1]!, (current = []));
    else if (line.trim() && !line.startsWith('#')) current.push(line);
  }
  return found;
}
const byStage = stages(readFileSync('Dockerfile', 'utf8'));
const runtime = byStage.get('runtime') ?? [];
const defaultOf = (config: { properties: Record<string, { default?: unknown }> }, key: string) =>
  String(config.properties[key]?.default);

describe('Dockerfile', () => {
  it('builds the capture page and the console in stages of their own and copies only their dist/ where they are served from', () => {
    const apps = [
      ['services/capture-page', defaultOf(DocverifyGatewayConfig, 'CAPTURE_PAGE_DIR')],
      ['services/console', defaultOf(ConsoleConfig, 'CONSOLE_WEB_DIR')],
    ];
    for (const [workspace, dir] of apps) {
      const build = `npm run build -w ${workspace}`;
      const stage = [...byStage].find(([, lines]) => lines.some((l) => l.includes(build)))?.[0];
      expect(stage, workspace).to.be.a('string').and.not.equal('runtime');
      expect(runtime, workspace).to.include(
        `COPY --from=${stage} --chown=root:root /app/${dir} ${dir}`,
      );
    }
  });

  it("exposes the port of every HTTP service, of the sandbox and of the workers' metrics", () => {
    const expose = runtime.find((l) => l.startsWith('EXPOSE ')) ?? '';
    expect(expose.split(' ').slice(1).map(Number)).to.include.members([
      ...HTTP_SERVICES.map((s) => s.port),
      8090,
      9100,
    ]);
  });
});
