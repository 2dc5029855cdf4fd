import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';

/** What a receiver got: every request, with its headers and body as sent. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1, answering by path: /ok 200, /gone 410, /fail-once 500 then 200,
 * /slow after 20 s, /hang-once never the first time then 200.
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly server: Server;
  private readonly seen = new Map<string, number>();

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '';
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const count = (this.seen.get(path) ?? 0) + 1;
        this.seen.set(path, count);
        if (path.startsWith('/ok')) res.writeHead(200).end('ok');
        else if (path.startsWith('/gone')) res.writeHead(410).end();
        else if (path.startsWith('/fail-once')) res.writeHead(count === 1 ? 500 : 200).end();
        else if (path.startsWith('/slow')) setTimeout(() => res.writeHead(200).end(), 20_000).unref();
        else if (path.startsWith('/hang-once')) {
          if (count > 1) res.writeHead(200).end();
        } else res.writeHead(404).end();
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((each) => each.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Checks a delivery with the Standard Webhooks specification's own library (not the service's code); its payload. */
export function verified(
  secret: string,
  delivery: Received,
): { type: string; timestamp: string; sequence: unknown; data: Record<string, unknown> } {
  const headers = {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  };
  return new StandardWebhook(secret).verify(delivery.body, headers) as ReturnType<typeof verified>;
}

/** Webhooks need a receiver the tests can run: http:// and 127.0.0.1 are allowed for these processes only. */
export const RELAXED = { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' };
