// A TCP proxy in front of a real server (RabbitMQ, PostgreSQL), so a test can cut connections without stopping
// the shared server: drop every socket, refuse new ones for a while, then accept again.
import net from 'node:net';

export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private refusing = false;
  /** connections refused since the start: a client's reconnect attempts, observable */
  refused = 0;

  private constructor(private readonly server: net.Server) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server);
    server.on('connection', (client) => proxy.forward(client, targetHost, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Destroys every proxied connection and refuses new ones until `restore()`. */
  cut(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(client: net.Socket, host: string, port: number): void {
    if (this.refusing) {
      this.refused += 1;
      client.destroy();
      return;
    }
    const upstream = net.connect(port, host);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.setNoDelay(true);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        to.destroy();
        this.sockets.delete(from);
      });
    }
  }
}
