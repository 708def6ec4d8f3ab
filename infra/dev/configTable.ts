// The configuration table of docs/configuration.md, generated from every config definition so it
// cannot drift: infra/render.ts (`make generate`) rewrites it between its markers.
import { describeConfig, PlatformConfig } from '@idv/config';
import type { TObject } from '@sinclair/typebox';
import { CaptureCheckerConfig } from '../../services/capture-checker/src/config.ts';
import { ConnectorWorkerConfig } from '../../services/connector-worker/src/config.ts';
import { ConsoleConfig } from '../../services/console/src/config.ts';
import { DocverifyGatewayConfig } from '../../services/docverify-gateway/src/config.ts';
import { OauthConfig } from '../../services/oauth/src/config.ts';
import { WebhookDispatcherConfig } from '../../services/webhook-dispatcher/src/config.ts';
import { WebhooksGatewayConfig } from '../../services/webhooks-gateway/src/config.ts';

const SECTIONS: [string, TObject][] = [
  ['every service', PlatformConfig],
  ['oauth', OauthConfig],
  ['docverify gateway', DocverifyGatewayConfig],
  ['webhooks gateway', WebhooksGatewayConfig],
  ['webhook dispatcher', WebhookDispatcherConfig],
  ['connector worker', ConnectorWorkerConfig],
  ['capture checker', CaptureCheckerConfig],
  ['operator console', ConsoleConfig],
];

const EXTRA = [
  {
    section: 'provider sandbox',
    name: 'SANDBOX_PORT',
    default: '8090',
    doc: 'HTTP port of the provider sandbox',
  },
  {
    section: 'provider sandbox',
    name: 'SANDBOX_HOST',
    default: '127.0.0.1',
    doc: 'address the sandbox listens on',
  },
];

/** The guide that holds the table, from the repository's root. */
export const CONFIG_TABLE_FILE = 'docs/configuration.md';

export const START = '<!-- config-table:start -->';
export const END = '<!-- config-table:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function configTable(): string {
  const seen = new Set<string>();
  const rows = SECTIONS.flatMap(([section, definition]) =>
    describeConfig(definition)
      .filter((row) => !seen.has(row.name) && seen.add(row.name))
      .map((row) => ({ section, ...row })),
  ).concat(EXTRA);
  return [
    '| variable | used by | default | meaning |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.name}\` | ${r.section} | ${r.default === '' ? '' : `\`${cell(r.default)}\``} | ${cell(r.doc)} |`,
    ),
  ].join('\n');
}

export function withTable(guide: string): string {
  const start = guide.indexOf(START);
  const end = guide.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(`${CONFIG_TABLE_FILE} lacks the ${START} … ${END} markers`);
  return `${guide.slice(0, start + START.length)}\n${configTable()}\n${guide.slice(end)}`;
}
