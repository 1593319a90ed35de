import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook POST as the receiver got it. */
export interface Received {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What the receiver answers a request with; `hang` never answers. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: it records every request and answers as
 * `respond` says (200 unless told otherwise).
 */
export interface Receiver {
  url: string;
  received: Received[];
  /** Requests whose webhook-id is `id`. */
  withId(id: string): Received[];
  /** Replaces how it answers the next requests (`n` is the request's number, from 0). */
  answer(respond: (request: Received, n: number) => Answer): void;
  close(): Promise<void>;
}

export async function startReceiver(
  respond: (request: Received, n: number) => Answer = () => ({ status: 200 }),
): Promise<Receiver> {
  const received: Received[] = [];
  let answer = respond;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const request = { at: Date.now(), path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const reply = answer(request, received.length - 1);
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    withId: (id) => received.filter((r) => r.headers['webhook-id'] === id),
    answer(next) {
      answer = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
