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

/** A simulator started, switched by its behaviour `B` and counting `S` (the upstreams' and Paystack's). */
export interface Simulator<B, S> {
  /** Base URL, http://127.0.0.1:<port>. */
  readonly url: string;
  /** Environment variables that point partner-api here, credentials included. */
  readonly env: Record<string, string>;
  configure(change: Partial<B>): void;
  behaviour(): B;
  stats(): S;
  close(): Promise<void>;
}

/** Where a simulator listens (loopback and any free port unless given), and how it behaves at first. */
export interface SimulatorStart<B> {
  port?: number;
  host?: string;
  behaviour?: Partial<B>;
}

export interface RunningSimulator extends Simulator<SimulatorBehaviour, SimulatorStats> {
  readonly name: UpstreamName;
  /** Makes every token issued so far invalid (Reloadly; a no-op elsewhere). */
  expireTokens(): void;
}

export interface SimulatorOptions extends SimulatorStart<SimulatorBehaviour> {
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
}): Promise<SimulatorServer> {
  const settings = { behaviour: options.behaviour, configure: options.configure, stats: options.stats, problem: behaviourProblem };
  return serveSimulator({
    port: options.port,
    host: options.host,
    latencyMs: () => options.behaviour().latencyMs,
    control: (request) => {
      const answer = behaviourEndpoints(request, request.body, settings);
      if (answer) return answer;
      if (request.method === 'POST' && request.path === '/_sim/expire-tokens') {
        options.expireTokens();
        return { status: 204 };
      }
      return NO_SUCH_CONTROL;
    },
    handle: options.handle,
  });
}

export interface SimulatorServer {
  url: string;
  close(): Promise<void>;
  trackInFlight: { now: number; max: number };
}

/**
 * A simulator's HTTP server on `host` (loopback unless given): a request under /_sim/ goes to
 * `control`; any other is answered by `handle` after `latencyMs`, counted in flight, and a 500 when
 * `handle` throws. Every answer is JSON.
 */
export async function serveSimulator(options: {
  port?: number | undefined;
  host?: string | undefined;
  latencyMs: () => number;
  control: (request: SimRequest) => SimResponse | Promise<SimResponse>;
  handle: (request: SimRequest) => Promise<SimResponse>;
}): Promise<SimulatorServer> {
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
          answer = await options.control(request);
        } else {
          inFlight.now++;
          inFlight.max = Math.max(inFlight.max, inFlight.now);
          try {
            const latency = options.latencyMs();
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

/** The answer to a control request no simulator serves. */
export const NO_SUCH_CONTROL: SimResponse = { status: 404, body: { message: 'no such control endpoint' } };

/**
 * GET /_sim/state (behaviour and stats) and POST /_sim/behaviour (`body`: a partial behaviour,
 * checked by `problem`), the control endpoints every simulator has; null for any other request.
 */
export function behaviourEndpoints<B>(
  request: SimRequest,
  body: unknown,
  settings: { behaviour: () => B; configure: (change: Partial<B>) => void; stats: () => unknown; problem: (value: unknown) => string | null },
): SimResponse | null {
  if (request.method === 'GET' && request.path === '/_sim/state') return { status: 200, body: { behaviour: settings.behaviour(), stats: settings.stats() } };
  if (request.method === 'POST' && request.path === '/_sim/behaviour') {
    const problem = settings.problem(body);
    if (problem) return { status: 400, body: { message: problem } };
    settings.configure(body as Partial<B>);
    return { status: 200, body: { behaviour: settings.behaviour() } };
  }
  return null;
}

/** Why one setting's value is wrong, or null. */
export type SettingRule = (value: unknown) => string | null;

/** Why a behaviour sent to POST /_sim/behaviour is malformed (not an object, an unknown setting, or the first setting its rule refuses), or null. */
export function settingsProblem(value: unknown, rules: Readonly<Record<string, SettingRule>>): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'send a JSON object';
  for (const [key, v] of Object.entries(value)) {
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
    if (!rule) return `unknown setting ${key}`;
    const problem = rule(v);
    if (problem) return problem;
  }
  return null;
}

/** The rules of `outcome` (one of `outcomes`) and `numbers` (numbers mapped to them). */
export function outcomeRules(outcomes: readonly string[]): { outcome: SettingRule; numbers: SettingRule } {
  const isOutcome = (v: unknown) => typeof v === 'string' && outcomes.includes(v);
  return {
    outcome: (v) => (isOutcome(v) ? null : `outcome must be one of ${outcomes.join(', ')}`),
    numbers: (v) =>
      v === null || typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every(isOutcome) ? 'numbers maps numbers to outcomes' : null,
  };
}

/** A whole number, zero or more; `message` otherwise. */
export const wholeNumber =
  (message: string): SettingRule =>
  (v) =>
    typeof v !== 'number' || !Number.isInteger(v) || v < 0 ? message : null;

/** A boolean setting. */
export const trueOrFalse =
  (name: string): SettingRule =>
  (v) =>
    typeof v === 'boolean' ? null : `${name} must be true or false`;

const BEHAVIOUR_RULES: Record<string, SettingRule> = {
  ...outcomeRules(SIMULATED_OUTCOMES),
  settleMs: wholeNumber('settleMs must be a whole number of milliseconds'),
  latencyMs: wholeNumber('latencyMs must be a whole number of milliseconds'),
  hangMs: wholeNumber('hangMs must be a whole number of milliseconds'),
  loseCallbacks: trueOrFalse('loseCallbacks'),
};

/** Why a control request's behaviour is malformed, or null. */
export function behaviourProblem(value: unknown): string | null {
  return settingsProblem(value, BEHAVIOUR_RULES);
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
