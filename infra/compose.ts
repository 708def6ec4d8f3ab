// The connector workers of docker-compose.yml: one service per type from the list (no host port,
// so `docker compose up --scale <type>=N` scales that type alone). The rest is written by hand.
import type { ConnectorOf, ConnectorType } from '@idv/contracts';
import { withGeneratedBlock } from './generatedBlock.ts';

export const COMPOSE_FILE = 'docker-compose.yml';

export function withConnectorServices(
  text: string,
  connectors: readonly ConnectorOf<ConnectorType>[],
): string {
  const services = connectors.flatMap((c, i) => [
    ...(i > 0 ? [''] : []),
    `  ${c.type}:`,
    '    <<: *connector',
    '    environment:',
    '      <<: *connector-env',
    `      CONNECTOR_TYPE: ${c.type}`,
  ]);
  return withGeneratedBlock(text, COMPOSE_FILE, 'connector workers', services);
}
