// One load run in its own process (so the load generator never shares the server's event loop).
// argv[2]: JSON { url, connections, durationS, scenario: ScenarioParams }; prints a JSON result.
import autocannon from 'autocannon';
import { buildRequests, type ScenarioParams } from './scenarios.js';

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
const deadline = Date.now() + args.durationS * 1000;
const timers: NodeJS.Timeout[] = [];
let inWindow = 0;

const result = await autocannon({
  url: args.url,
  connections: args.connections,
  // Ends as soon as every connection has drained (autocannon stops when all clients are done).
  duration: args.durationS + DRAIN_GRACE_S,
  requests: buildRequests(args.scenario) as autocannon.Request[],
  setupClient: (client) => {
    client.on('response', () => {
      if (Date.now() <= deadline) inWindow++;
    });
    // At the deadline send nothing more: the request in flight completes and is counted, then the connection closes.
    timers.push(
      setTimeout(() => {
        const c = client as unknown as DrainableClient;
        c.responseMax = Math.max(c.reqsMade, 1);
      }, Math.max(0, deadline - Date.now())),
    );
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
