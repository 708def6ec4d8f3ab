// The compose scrape targets of prometheus.yml: one DNS name per connector type, from the list.
import type { ConnectorOf, ConnectorType } from '@idv/contracts';
import { withGeneratedBlock } from '../generatedBlock.ts';

export const PROMETHEUS_FILE = 'infra/observability/prometheus.yml';

export function withConnectorTargets(
  text: string,
  connectors: readonly ConnectorOf<ConnectorType>[],
): string {
  const names = connectors.map((c) => `          - ${c.type}`);
  return withGeneratedBlock(text, PROMETHEUS_FILE, 'connector types', names);
}
