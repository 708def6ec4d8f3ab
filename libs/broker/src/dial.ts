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

export async function dial(options: DialOptions): Promise<ChannelModel> {
  // Without noDelay, Nagle's algorithm holds small frames back and a request-reply takes ~44 ms.
  const model = await connect(withHeartbeat(options.url, options.heartbeatSeconds ?? 10), {
    noDelay: true,
    timeout: options.connectTimeoutMs ?? 10_000,
    clientProperties: { connection_name: options.connectionName ?? `idv-${process.pid}` },
  });
  writeFramesTogether(model);
  return model;
}

/** The parts of amqplib's connection (lib/connection.js, lib/mux.js) writeFramesTogether uses. */
interface FrameWriter {
  stream?: { cork?: () => void; uncork?: () => void };
  muxer?: { _readIncoming?: () => void };
}

/**
 * amqplib's muxer writes every frame it has ready (a publish, an ack, a reply: each of every
 * channel) in one pass, but as one socket write per frame. Corking the socket for the pass makes
 * them one write: a /verify's frames cost the gateway, the worker and RabbitMQ a system call and a
 * wake-up each (bench/results/history.md). Nothing is held back: the pass uncorks before it ends.
 * Should a later amqplib name these parts otherwise, it is left as it is.
 */
function writeFramesTogether(model: ChannelModel): void {
  const connection = (model as unknown as { connection?: FrameWriter }).connection;
  const { stream, muxer } = connection ?? {};
  const pass = muxer?._readIncoming;
  if (!stream?.cork || !stream.uncork || !muxer || typeof pass !== 'function') return;
  muxer._readIncoming = function (this: unknown) {
    stream.cork!();
    try {
      pass.call(this);
    } finally {
      stream.uncork!();
    }
  };
}

/** A heartbeat in the URL wins; otherwise ours is added (amqplib reads it from the query). */
function withHeartbeat(url: string, heartbeatSeconds: number): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('heartbeat')) {
    parsed.searchParams.set('heartbeat', String(heartbeatSeconds));
  }
  return parsed.toString();
}
