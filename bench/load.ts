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
let deadline = Number.POSITIVE_INFINITY;
let inWindow = 0;

/**
 * The measured window opens once every connection holds its prebuilt requests (autocannon creates
 * them all in one synchronous loop) and closes after durationS. At its end a connection sends
 * nothing more: its request in flight completes and is counted, then the connection closes.
 */
function openWindow(): void {
  deadline = Date.now() + args.durationS * 1000;
  inWindow = 0;
  for (const client of clients) {
    timers.push(setTimeout(() => (client.responseMax = Math.max(client.reqsMade, 1)), args.durationS * 1000));
  }
}

const result = await autocannon({
  url: args.url,
  connections: args.connections,
  // Ends as soon as every connection has drained (autocannon stops when all clients are done).
  duration: args.durationS + DRAIN_GRACE_S,
  // Replaced per connection in setupClient (autocannon deep-copies this default into every client).
  requests: [{ method: 'GET', path: '/healthz' }],
  setupClient: (client) => {
    if (clients.length === 0) setImmediate(openWindow);
    client.setRequests(connectionRequests(args.scenario, clients.length) as autocannon.Request[]);
    clients.push(client as unknown as DrainableClient);
    client.on('response', () => {
      if (Date.now() <= deadline) inWindow++;
    });
  },
});
for (const timer of timers) clearTimeout(timer);
const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
process.stdout.write(
  `${JSON.stringify({
    // Responses completed inside the measured window, per second of it (the drain is not throughput).
    rps: inWindow / args.durationS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  })}\n`,
);
