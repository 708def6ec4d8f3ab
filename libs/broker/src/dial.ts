// How we dial RabbitMQ: socket options, heartbeat, handshake timeout and the connection's name.
import { connect, type ChannelModel } from 'amqplib';

export interface DialOptions {
  url: string;
  /** seconds; a dead peer is noticed after about two of them; default 10 */
  heartbeatSeconds?: number;
  /** how long one TCP + AMQP handshake may take; default 10 000 ms */
  connectTimeoutMs?: number;
  /** shown in the RabbitMQ management UI */
  connectionName?: string;
}

export function dial(options: DialOptions): Promise<ChannelModel> {
  // Without noDelay, Nagle's algorithm holds small frames back and a request-reply takes ~44 ms.
  return connect(withHeartbeat(options.url, options.heartbeatSeconds ?? 10), {
    noDelay: true,
    timeout: options.connectTimeoutMs ?? 10_000,
    clientProperties: { connection_name: options.connectionName ?? `idv-${process.pid}` },
  });
}

/** A heartbeat in the URL wins; otherwise ours is added (amqplib reads it from the query). */
function withHeartbeat(url: string, heartbeatSeconds: number): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('heartbeat')) {
    parsed.searchParams.set('heartbeat', String(heartbeatSeconds));
  }
  return parsed.toString();
}
