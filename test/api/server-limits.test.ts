import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../api/app.js';
import { createHttpServer } from '../../api/server.js';
import { loadConfig } from '../../engine/config.js';
import { testEngine } from '../helpers/context.js';

interface Trickled {
  /** How long the server kept the connection open; null when it was still open at the give-up time. */
  closedAfterMs: number | null;
  received: string;
}

/**
 * A slow client: writes `opening`, then `drip` every `everyMs`, until the server closes the
 * connection or `giveUpMs` has passed.
 */
function trickle(server: Server, opening: string, drip: string, everyMs: number, giveUpMs: number): Promise<Trickled> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(opening));
    const dripping = setInterval(() => socket.writable && socket.write(drip), everyMs);
    const giveUp = setTimeout(() => finish(null), giveUpMs);
    const finish = (closedAfterMs: number | null) => {
      clearInterval(dripping);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs, received });
    };
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a reset or a write after the close; 'close' follows
    socket.on('close', () => finish(Date.now() - started));
  });
}

describe('the HTTP server and slow clients', () => {
  const servers: Server[] = [];

  /** The API's own server (the one api/main.ts listens with) over the shared engine, with other limits. */
  async function startServer(env: Record<string, string>): Promise<Server> {
    const config = loadConfig({ ...process.env, ...env });
    const server = createHttpServer(createApp({ ...testEngine(), config }), config).listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
    return server;
  }

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when a client trickles its headers, then it is answered 408 and cut off after HEADERS_TIMEOUT_MS', async () => {
    const server = await startServer({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '5000' });
    const slow = await trickle(server, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n', 'X-Slow: 1\r\n', 100, 4000);
    expect(slow.closedAfterMs, 'closed after (ms)').to.be.a('number').within(250, 1500);
    expect(slow.received).to.match(/^HTTP\/1\.1 408 /);
  });

  it('when a client trickles its body, then it is cut off after REQUEST_TIMEOUT_MS', async () => {
    const server = await startServer({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '800' });
    const headers = 'POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const slow = await trickle(server, headers, ' ', 100, 4000);
    expect(slow.closedAfterMs, 'closed after (ms)').to.be.a('number').within(750, 2500);
  });

  it('when MAX_CONNECTIONS connections are open, then a further one is closed at once and the open ones still answer', async () => {
    const server = await startServer({ MAX_CONNECTIONS: '2' });
    const { port } = server.address() as AddressInfo;
    const open = await Promise.all(
      [0, 1].map(async () => {
        const socket = connect(port, '127.0.0.1');
        await once(socket, 'connect');
        return socket;
      }),
    );
    try {
      // The server counts a connection once it has accepted it: give it that moment.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await trickle(server, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n', '', 1000, 3000);
      expect(refused.closedAfterMs, 'closed after (ms)').to.be.a('number').below(1000);
      expect(refused.received).to.equal('');

      open[0]!.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const [answer] = (await once(open[0]!, 'data')) as [Buffer];
      expect(answer.toString('latin1')).to.match(/^HTTP\/1\.1 200 /);
    } finally {
      for (const socket of open) socket.destroy();
    }
  });
});
