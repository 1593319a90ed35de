// One load run in its own process (so the load generator never shares the server's event loop).
// argv[2]: JSON { url, connections, durationS, scenario: ScenarioParams }; prints a JSON result.
import autocannon from 'autocannon';
import { connectionRequests, type ScenarioParams } from './scenarios.js';

interface LoadArgs {
  url: string;
  connections: number;
  durationS: number;
  scenario: ScenarioParams;
}

/**
 * autocannon 8 internals: a connection destroys itself, between two requests, once `reqsMade`
 * reaches `responseMax`. Left to its `duration`, autocannon instead drops every connection with its
 * request in flight: the server still completes those (a purchase commits an order) but nobody
 * counts the response, so "orders created = 2xx" could never hold.
 */
interface DrainableClient {
  reqsMade: number;
  responseMax: number | undefined;
}

/** Longest wait for the requests in flight at the deadline; autocannon's own 10 s timeout comes first. */
const DRAIN_GRACE_S = 30;

const args = JSON.parse(process.argv[2] ?? '{}') as LoadArgs;
const timers: NodeJS.Timeout[] = [];
const clients: DrainableClient[] = [];
const answered = new Set<number>();
let windowStart = Number.POSITIVE_INFINITY;
let deadline = Number.POSITIVE_INFINITY;
/** Latency (ms) of every response completed inside the window. */
const latencies: number[] = [];

/** Longest wait for every connection's first answer before the window opens anyway. */
const CONNECT_GRACE_MS = 60_000;

/**
 * The measured window opens once every connection has had its first answer. A Node server whose
 * event loop is saturated by the first connections serves a new connection's first request about
 * once per loop turn (a bare Fastify server with 100 ms turns does the same): at 200 connections
 * the last ones wait up to ~30 s for their first answer, a start-up effect and not the service's
 * steady state. The window closes after durationS. At its end a connection sends nothing more:
 * its request in flight completes and is counted, then the connection closes.
 */
function openWindow(): void {
  if (windowStart !== Number.POSITIVE_INFINITY) return;
  windowStart = Date.now();
  deadline = windowStart + args.durationS * 1000;
  for (const client of clients) {
    timers.push(setTimeout(() => (client.responseMax = Math.max(client.reqsMade, 1)), args.durationS * 1000));
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
}

timers.push(setTimeout(openWindow, CONNECT_GRACE_MS));
/**
 * When the first request went out (the earliest answer's time less its latency: building the
 * requests in setupClient comes before it) and when the last answer came in, in ms since the
 * epoch: the load's span.
 */
let startedAt = Number.POSITIVE_INFINITY;
let lastAnswerAt = 0;
const result = await autocannon({
  url: args.url,
  connections: args.connections,
  // Ends as soon as every connection has drained (autocannon stops when all clients are done).
  duration: args.durationS + DRAIN_GRACE_S + CONNECT_GRACE_MS / 1000,
  // Replaced per connection in setupClient (autocannon deep-copies this default into every client).
  requests: [{ method: 'GET', path: '/healthz' }],
  setupClient: (client) => {
    const index = clients.length;
    client.setRequests(connectionRequests(args.scenario, index) as autocannon.Request[]);
    clients.push(client as unknown as DrainableClient);
    client.on('response', (_status: number, _bytes: number, latencyMs: number) => {
      const now = Date.now();
      lastAnswerAt = now;
      startedAt = Math.min(startedAt, now - latencyMs);
      if (now >= windowStart && now <= deadline) latencies.push(latencyMs);
      if (!answered.has(index)) {
        answered.add(index);
        if (answered.size === args.connections) openWindow();
      }
    });
  },
});
for (const timer of timers) clearTimeout(timer);
latencies.sort((a, b) => a - b);
const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
process.stdout.write(
  `${JSON.stringify({
    // Responses completed inside the measured window, per second of it (the drain is not throughput).
    rps: latencies.length / args.durationS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.round(latencies[latencies.length - 1] ?? 0),
    total: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    startedAt: Number.isFinite(startedAt) ? startedAt : lastAnswerAt,
    lastAnswerAt,
  })}\n`,
);
