import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../ops/metrics.js';

/** Purchase routes and the order type each acknowledges (a 200 that is not a replay counts). */
const PURCHASES: Record<string, string> = {
  '/api/v1/data-bundles/buy-single': 'data_single',
  '/api/v1/data-bundles/buy-bulk': 'data_bulk',
  '/api/v1/data-bundles/retry-recipient': 'data_retry',
  '/api/v1/result-checker/buy-single': 'result_checker_single',
  '/api/v1/result-checker/buy-bulk': 'result_checker_bulk',
};

/** Counts and times every answered request by route pattern and status, and acknowledged purchases by mode. */
export function requestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(unmatched)';
    const status = reply.statusCode;
    metrics.request(request.method, route, status, reply.elapsedTime / 1000);
    const type = PURCHASES[route];
    if (type !== undefined && status === 200 && reply.getHeader('idempotent-replayed') === undefined) {
      const mode = (request as { auth?: { mode?: string } | null }).auth?.mode;
      if (mode) metrics.orderAccepted(mode, type);
    }
    done();
  });
}
