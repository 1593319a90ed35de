import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UpstreamName } from './types.js';

/**
 * What every upstream simulator shares (docs/upstream-apis.md is what each one speaks): a
 * real HTTP server on loopback, a behaviour that tests and staging switch (per number or for all),
 * counts of what it was asked and what it delivered, and control endpoints under /_sim/ so that a
 * simulator started by `cli simulate` can be switched from outside.
 */

/**
 * What the simulator does with a submission:
 * - `complete`: takes it, reports success `settleMs` later (by status and callback);
 * - `complete-at-once`: takes it and answers with the final success right away;
 * - `refuse-float` / `refuse-number` / `refuse-product`: refuses it (nothing taken) with the
 *   upstream's code for insufficient balance / an invalid number / a product or bundle not available;
 * - `fail-after-accept` / `fail-number-after-accept`: takes it, then fails it `settleMs` later
 *   (a route problem / a number problem);
 * - `hang-after-taking`: takes it (it will complete) but answers only after `hangMs`;
 * - `error-after-taking`: takes it (it will complete) and answers 5xx;
 * - `error-before-taking`: answers 5xx without taking it;
 * - `recently-recharged`: refuses it as the number was just recharged (Reloadly only; others refuse-product).
 */
export const SIMULATED_OUTCOMES = [
  'complete',
  'complete-at-once',
  'refuse-float',
  'refuse-number',
  'refuse-product',
  'fail-after-accept',
  'fail-number-after-accept',
  'hang-after-taking',
  'error-after-taking',
  'error-before-taking',
  'recently-recharged',
] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

export interface SimulatorBehaviour {
  /** For every number without an entry in `numbers`. */
  outcome: SimulatedOutcome;
  /** By normalised number (233244123456): overrides `outcome`. */
  numbers: Record<string, SimulatedOutcome>;
  /** From taking an order to its final state. */
  settleMs: number;
  /** Added before every answer (a slow upstream). */
  latencyMs: number;
  /** How long `hang-after-taking` holds its answer. */
  hangMs: number;
  /** Callbacks are not sent (the delivery is then known by status checks alone). */
  loseCallbacks: boolean;
}

export const DEFAULT_BEHAVIOUR: SimulatorBehaviour = {
  outcome: 'complete',
  numbers: {},
  settleMs: 50,
  latencyMs: 0,
  hangMs: 60_000,
  loseCallbacks: false,
};

export interface SimulatedDelivery {
  /** Our reference (the upstream's idempotency field). */
  reference: string;
  transactionId: string;
  msisdn: string;
  /** GHS as the upstream was asked, or the product id for DT One. */
  product: string;
}

export interface SimulatorStats {
  /** Submissions that reached the buy endpoint (refused ones included). */
  submissions: number;
  /** Final successes: a bundle loaded onto a number. Twice for one number and reference is the bug we guard against. */
  deliveries: SimulatedDelivery[];
  /** Requests per endpoint name (e.g. "token", "buy", "status", "lookup", "bundles", "balance"). */
  calls: Record<string, number>;
  /** The most requests in flight at once, control endpoints excluded. */
  maxInFlight: number;
  /** Callbacks sent, and how many of them the receiver answered with a 2xx. */
  callbacksSent: number;
  callbacksAcknowledged: number;
}

export interface RunningSimulator {
  readonly name: UpstreamName;
  /** Base URL, http://127.0.0.1:<port>. */
  readonly url: string;
  /** Environment variables that point partner-api's adapter here, credentials included. */
  readonly env: Record<string, string>;
  configure(change: Partial<SimulatorBehaviour>): void;
  behaviour(): SimulatorBehaviour;
  stats(): SimulatorStats;
  /** Makes every token issued so far invalid (Reloadly; a no-op elsewhere). */
  expireTokens(): void;
  close(): Promise<void>;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  behaviour?: Partial<SimulatorBehaviour>;
  /** Reloadly: where its signed callbacks go (Reloadly's webhook is set in its dashboard, not per call). */
  callbackUrl?: string;
  /** Reloadly: the webhook secret its callbacks are signed with. */
  webhookSecret?: string;
}

export interface SimRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or null. */
  body: unknown;
  rawBody: string;
}

export interface SimResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Starts an HTTP server that answers `handle` after the behaviour's latency, counts requests in
 * flight, and serves the control endpoints: GET /_sim/state (behaviour and stats), POST
 * /_sim/behaviour (a partial behaviour), POST /_sim/expire-tokens.
 */
export async function startSimulatorServer(options: {
  port?: number;
  host?: string;
  behaviour: () => SimulatorBehaviour;
  configure: (change: Partial<SimulatorBehaviour>) => void;
  stats: () => SimulatorStats;
  expireTokens: () => void;
  handle: (request: SimRequest) => Promise<SimResponse>;
}): Promise<{ url: string; close(): Promise<void>; trackInFlight: { now: number; max: number } }> {
  const inFlight = { now: 0, max: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://simulator');
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = rawBody === '' ? null : (JSON.parse(rawBody) as unknown);
        } catch {
          body = null;
        }
        const request: SimRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, rawBody };
        let answer: SimResponse;
        if (url.pathname.startsWith('/_sim/')) {
          answer = control(request, options);
        } else {
          inFlight.now++;
          inFlight.max = Math.max(inFlight.max, inFlight.now);
          try {
            const latency = options.behaviour().latencyMs;
            if (latency > 0) await delay(latency);
            answer = await options.handle(request);
          } catch (error) {
            answer = { status: 500, body: { message: error instanceof Error ? error.message : 'simulator error' } };
          } finally {
            inFlight.now--;
          }
        }
        if (res.destroyed) return;
        const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(payload);
      })();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    trackInFlight: inFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function control(
  request: SimRequest,
  options: { behaviour: () => SimulatorBehaviour; configure: (c: Partial<SimulatorBehaviour>) => void; stats: () => SimulatorStats; expireTokens: () => void },
): SimResponse {
  if (request.method === 'GET' && request.path === '/_sim/state') return { status: 200, body: { behaviour: options.behaviour(), stats: options.stats() } };
  if (request.method === 'POST' && request.path === '/_sim/behaviour') {
    const problem = behaviourProblem(request.body);
    if (problem) return { status: 400, body: { message: problem } };
    options.configure(request.body as Partial<SimulatorBehaviour>);
    return { status: 200, body: { behaviour: options.behaviour() } };
  }
  if (request.method === 'POST' && request.path === '/_sim/expire-tokens') {
    options.expireTokens();
    return { status: 204 };
  }
  return { status: 404, body: { message: 'no such control endpoint' } };
}

const isOutcome = (v: unknown): v is SimulatedOutcome => typeof v === 'string' && (SIMULATED_OUTCOMES as readonly string[]).includes(v);

/** Why a control request's behaviour is malformed, or null. */
export function behaviourProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'send a JSON object';
  for (const [key, v] of Object.entries(value)) {
    if (key === 'outcome') {
      if (!isOutcome(v)) return `outcome must be one of ${SIMULATED_OUTCOMES.join(', ')}`;
    } else if (key === 'numbers') {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.values(v as object).every(isOutcome)) return 'numbers maps numbers to outcomes';
    } else if (key === 'settleMs' || key === 'latencyMs' || key === 'hangMs') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return `${key} must be a whole number of milliseconds`;
    } else if (key === 'loseCallbacks') {
      if (typeof v !== 'boolean') return 'loseCallbacks must be true or false';
    } else return `unknown setting ${key}`;
  }
  return null;
}

/** The outcome for a number under a behaviour. */
export function outcomeFor(behaviour: SimulatorBehaviour, msisdn: string): SimulatedOutcome {
  return behaviour.numbers[msisdn] ?? behaviour.outcome;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Sends a callback (JSON POST), never throwing; true when the receiver answered 2xx. */
export async function sendCallback(url: string, body: unknown, headers: Record<string, string> = {}, rawBody?: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: rawBody ?? JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}
