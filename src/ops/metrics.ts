import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../context.js';
import type { WorkerObserver } from '../worker/worker.js';

/**
 * The process's Prometheus metrics (prom-client), one registry per AppContext. Domain code knows
 * nothing of it: the database, the worker and the webhook lane take plain observer callbacks, set
 * here; the HTTP side is a hook (http/plugins/request-metrics.ts); gauges that describe the
 * database (outbox, stock, pool) are read when scraped.
 */
export interface Metrics {
  registry: Registry;
  /** One answered HTTP request: its route pattern (not the URL, so ids do not multiply series). */
  request(method: string, route: string, status: number, seconds: number): void;
  /** A purchase the API acknowledged (200, not a replay). */
  orderAccepted(mode: string, type: string): void;
  worker: WorkerObserver;
  webhookResult(result: string): void;
}

const contexts = new WeakMap<AppContext, Metrics>();

/** The metrics of `ctx`'s process, created (and the database observed) on first use. */
export function metricsFor(ctx: AppContext): Metrics {
  let metrics = contexts.get(ctx);
  if (!metrics) {
    metrics = createMetrics(ctx);
    contexts.set(ctx, metrics);
  }
  return metrics;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics(ctx: AppContext): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'partner_api_' });
  const registers = [registry];
  const log = (what: string) => (error: unknown) => ctx.log.warn({ err: error, metric: what }, 'metric could not be read');

  if (ctx.database.dialect === 'postgres') {
    // Registered before the gauges that query the database: a scrape calls every collect() in
    // registration order, so this one reads the pool before the scrape's own reads queue for a
    // connection (after them, an idle API read "waiting 3": the scrape's three reads).
    new Gauge({
      name: 'partner_api_db_pool_connections',
      help: 'PostgreSQL pool of this process: total (open), idle, waiting (requests queued for a connection), max',
      labelNames: ['state'],
      registers,
      collect() {
        const usage = ctx.database.poolUsage();
        if (!usage) return;
        for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, usage[state]);
      },
    });
  }

  const requests = new Counter({
    name: 'partner_api_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'partner_api_http_request_duration_seconds',
    help: 'Time from request to response sent, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const accepted = new Counter({
    name: 'partner_api_orders_accepted_total',
    help: 'Purchases acknowledged by this process (200, replays excluded), by key mode and order type',
    labelNames: ['mode', 'type'],
    registers,
  });
  const settled = new Counter({
    name: 'partner_api_deliveries_settled_total',
    help: 'Data deliveries (a single order, or one recipient of a bulk order) settled by this worker, by mode and outcome',
    labelNames: ['mode', 'outcome'],
    registers,
  });
  const batches = new Histogram({
    name: 'partner_api_worker_batch_duration_seconds',
    help: 'Time an outbox batch took from claim to its last step',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const providerErrors = new Counter({
    name: 'partner_api_provider_errors_total',
    help: 'Failed provider calls, by provider, step (submit, poll) and whether they are retried',
    labelNames: ['provider', 'step', 'retryable'],
    registers,
  });
  const webhooks = new Counter({
    name: 'partner_api_webhook_attempts_total',
    help: 'Webhook delivery attempts by result: succeeded, retrying, failed (for good), error (not recorded)',
    labelNames: ['result'],
    registers,
  });

  new Gauge({
    name: 'partner_api_outbox_depth',
    help: 'Deliveries waiting in the outbox (submit or poll), whole database',
    registers,
    async collect() {
      await ctx.repositories.outbox.stats().then((s) => this.set(s.depth), log('outbox_depth'));
    },
  });
  new Gauge({
    name: 'partner_api_outbox_oldest_age_seconds',
    help: 'Age of the oldest outbox row (0 when empty), whole database',
    registers,
    async collect() {
      await ctx.repositories.outbox
        .stats()
        .then(
          (s) => this.set(s.oldestCreatedAt === null ? 0 : Math.max(0, (ctx.clock() - s.oldestCreatedAt) / 1000)),
          log('outbox_age'),
        );
    },
  });
  new Gauge({
    name: 'partner_api_result_checker_stock',
    help: 'Unassigned result-checker credentials, by package',
    labelNames: ['package'],
    registers,
    async collect() {
      await ctx.repositories.resultChecker.stockByPackage().then((rows) => {
        this.reset();
        for (const row of rows) this.set({ package: row.id }, Number(row.stock ?? 0));
      }, log('result_checker_stock'));
    },
  });

  // What staff must notice first (docs/deployment.md, "Alerts worth setting"): read from the database when scraped.
  new Gauge({
    name: 'partner_api_deliveries_needing_attention',
    help: 'Deliveries whose upstream attempt has been unknown longer than DELIVERY_ATTENTION_AFTER_MS, whole database',
    registers,
    async collect() {
      await ctx.deliveries.needingAttention().then((rows) => this.set(rows.length), log('deliveries_needing_attention'));
    },
  });
  const floatLines = () => ctx.floats.lines();
  new Gauge({
    name: 'partner_api_provider_balance',
    help: "Each upstream's float as last read, in its own currency (Hubtel: never read)",
    labelNames: ['provider', 'currency'],
    registers,
    async collect() {
      await floatLines().then((lines) => {
        this.reset();
        for (const l of lines) if (l.available !== null && l.currency !== null) this.set({ provider: l.provider, currency: l.currency }, l.available / 100);
      }, log('provider_balance'));
    },
  });
  new Gauge({
    name: 'partner_api_provider_balance_age_seconds',
    help: "Age of each upstream's last float reading (absent: never read)",
    labelNames: ['provider'],
    registers,
    async collect() {
      await floatLines().then((lines) => {
        this.reset();
        for (const l of lines) if (l.ageMs !== null) this.set({ provider: l.provider }, l.ageMs / 1000);
      }, log('provider_balance_age'));
    },
  });
  new Gauge({
    name: 'partner_api_provider_balance_low',
    help: 'Whether an upstream float is LOW (below PROVIDER_LOW_BALANCE_<NAME>, or refused for insufficient float since): 1 or 0',
    labelNames: ['provider'],
    registers,
    async collect() {
      await floatLines().then((lines) => {
        this.reset();
        for (const l of lines) this.set({ provider: l.provider }, l.low ? 1 : 0);
      }, log('provider_balance_low'));
    },
  });
  new Gauge({
    name: 'partner_api_reconciliation_findings_unresolved',
    help: 'Reconciliation findings no admin has resolved yet, by upstream',
    labelNames: ['provider'],
    registers,
    async collect() {
      await ctx.reconciliation.unresolvedCounts().then((counts) => {
        this.reset();
        for (const provider of ['hubtel', 'reloadly', 'dtone']) this.set({ provider }, counts.get(provider) ?? 0);
      }, log('reconciliation_findings_unresolved'));
    },
  });
  new Gauge({
    name: 'partner_api_reconciliation_last_run_failed',
    help: "Whether an upstream's latest reconciliation run failed (no answer from the upstream, or attempts left unchecked): 1 or 0",
    labelNames: ['provider'],
    registers,
    async collect() {
      await ctx.reconciliation.latestRuns().then((runs) => {
        this.reset();
        for (const run of runs) this.set({ provider: run.provider }, run.status === 'failed' ? 1 : 0);
      }, log('reconciliation_last_run_failed'));
    },
  });

  if (ctx.database.dialect !== 'postgres') {
    const units = new Histogram({
      name: 'partner_api_sqlite_group_commit_units',
      help: 'Units of work per SQLite group commit',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers,
    });
    const commitSeconds = new Histogram({
      name: 'partner_api_sqlite_group_commit_seconds',
      help: 'Time of a SQLite group commit, BEGIN to COMMIT (the WAL sync after it is measured apart)',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const syncSeconds = new Histogram({
      name: 'partner_api_sqlite_wal_fsync_seconds',
      help: 'Time of an fdatasync of the SQLite WAL (SQLITE_SYNCHRONOUS=FULL)',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    ctx.database.observe({
      groupCommit(n, seconds) {
        units.observe(n);
        commitSeconds.observe(seconds);
      },
      walSync: (seconds) => syncSeconds.observe(seconds),
    });
  }

  return {
    registry,
    request(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    orderAccepted: (mode, type) => accepted.inc({ mode, type }),
    worker: {
      batch: (_rows, seconds) => batches.observe(seconds),
      providerError: (provider, step, retryable) => providerErrors.inc({ provider, step, retryable: String(retryable) }),
      settled: (mode, outcome) => settled.inc({ mode, outcome }),
    },
    webhookResult: (result) => webhooks.inc({ result }),
  };
}
