import { request, type Agent, type IncomingHttpHeaders } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** An open text/event-stream answer (or a refusal, with its JSON body), read as a client would. */
export interface EventStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** A refusal's parsed JSON body (undefined for a stream). */
  body: { error?: { code: string } } | undefined;
  /** Every event received so far, oldest first. */
  events: EventSourceMessage[];
  /** Comment lines received so far. */
  comments: number;
  /** The next event not yet taken by `next` (waits up to timeoutMs). */
  next(timeoutMs?: number): Promise<EventSourceMessage>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `url` as EventSource would, with `headers`; resolves once the status line has arrived. */
export function openEventStream(url: string, headers: Record<string, string> = {}, agent?: Agent): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers }, agent }, (res) => {
      const events: EventSourceMessage[] = [];
      let taken = 0;
      const waiting: (() => void)[] = [];
      const stream: EventStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: undefined,
        events,
        comments: 0,
        next(timeoutMs = 5000) {
          if (events.length > taken) return Promise.resolve(events[taken++]!);
          return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no event within ${timeoutMs} ms (${events.length} received)`)), timeoutMs);
            waiting.push(() => {
              clearTimeout(timer);
              resolve(events[taken++]!);
            });
          });
        },
        ended: new Promise((done) => res.once('close', () => done())),
        close: () => req.destroy(),
      };
      if (stream.status !== 200) {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => {
          stream.body = JSON.parse(text) as EventStream['body'];
          resolve(stream);
        });
        return;
      }
      const parser = createParser({
        onEvent: (event) => {
          events.push(event);
          waiting.shift()?.();
        },
        onComment: () => (stream.comments += 1),
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('error', () => undefined);
      resolve(stream);
    });
    req.once('error', reject);
    req.end();
  });
}
