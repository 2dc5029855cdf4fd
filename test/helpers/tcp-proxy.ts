import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server, so a test can make PostgreSQL or Redis unreachable for a
 * while (drop every connection, refuse new ones) and bring it back, or slow its answers down.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private blocked = false;
  /** Connections accepted while held, not yet passed on (see hold()). */
  private waiting: Socket[] | undefined;
  port = 0;
  /** Delay added to everything the server sends back (a distant or busy server), in order. */
  latencyMs = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      if (this.blocked) return client.destroy();
      if (this.waiting) {
        client.on('error', () => undefined);
        return void this.waiting.push(client);
      }
      this.connect(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  private connect(client: Socket): void {
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (this.latencyMs === 0) client.write(chunk);
      // Timers of equal delay fire in the order they were set, so the stream stays in order.
      else setTimeout(() => client.write(chunk), this.latencyMs);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  /**
   * Accepts new connections but passes none on until release(): processes starting at different
   * speeds then reach the server at the same moment.
   */
  hold(): void {
    this.waiting ??= [];
  }

  /** How many connections hold() is keeping waiting. */
  get held(): number {
    return this.waiting?.length ?? 0;
  }

  release(): void {
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    for (const client of waiting) this.connect(client);
  }

  /** Cuts every open connection and refuses new ones until unblock(). */
  block(): void {
    this.blocked = true;
    for (const socket of this.sockets) socket.destroy();
  }

  unblock(): void {
    this.blocked = false;
  }

  async stop(): Promise<void> {
    this.block();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
