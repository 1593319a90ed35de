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

const args = JSON.parse(process.argv[2] ?? '{}') as LoadArgs;

const result = await autocannon({
  url: args.url,
  connections: args.connections,
  duration: args.durationS,
  requests: buildRequests(args.scenario) as autocannon.Request[],
});
const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
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
