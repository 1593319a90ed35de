import { isIP } from 'node:net';

/**
 * Environment → typed, validated configuration (docs/configuration.md).
 * A bad value throws ConfigError naming the variable; the CLI prints it as one line and exits.
 */

export type SqliteSynchronous = 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  sandboxSettleMs: number;
  worker: 'inline' | 'off';
  /** Raw base64 key from CREDENTIALS_KEY, or null to use/generate the key file (not allowed in production). */
  credentialsKey: string | null;
  nodeEnv: string;
  logLevel: string;
  bodyLimitBytes: number;
  /** HTTP server timeouts (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  httpTimeouts: HttpTimeouts;
  /** An order still processing after this long is reported by `cli orders stuck`. */
  orderStuckAfterMs: number;
  /** Pesewas (ADJUSTMENT_APPROVAL_ABOVE, GHS): a wallet adjustment above it waits for a second admin. */
  adjustmentApprovalAbove: number;
  /** Pesewas (TOPUP_APPROVAL_ABOVE, GHS): approving a top-up request above it takes two staff members. */
  topUpApprovalAbove: number;
  sqliteSynchronous: SqliteSynchronous;
  /** PostgreSQL connections each process keeps (DATABASE_POOL_SIZE); unused with SQLite. */
  databasePoolSize: number;
  /** Per API key and per address limits (docs/api.md, "Rate limits"); 0 turns one off. */
  rateLimits: RateLimits;
  /** Whose X-Forwarded-For names the client (TRUST_PROXY): no one's by default. */
  trustProxy: TrustProxy;
  /** redis:// URL of the shared rate-limit counters (REDIS_URL); null: counters in this process's memory. */
  redisUrl: string | null;
  /** Prefix of this deployment's keys in Redis (REDIS_KEY_PREFIX), for several deployments on one Redis. */
  redisKeyPrefix: string;
  /** How long an Idempotency-Key and its stored answer are kept (IDEMPOTENCY_TTL_HOURS). */
  idempotencyTtlMs: number;
  /** Outbox worker tuning (WORKER_BATCH_SIZE, WORKER_BATCHES_IN_FLIGHT, WORKER_LEASE_MS, WORKER_IDLE_MS, PROVIDER_TIMEOUT_MS). */
  workerTuning: WorkerTuning;
  /** Events and their webhook deliveries (docs/webhooks.md, "For operators"). */
  webhooks: WebhookSettings;
  /** The staff console under /console (docs/console.md). */
  console: ConsoleSettings;
  /** Operations: metrics exposure and shutdown (docs/deployment.md). */
  operations: OperationsSettings;
  /** The real upstreams of live deliveries (docs/live-delivery.md, "Providers"). */
  upstreams: UpstreamSettings;
  /** Mobile Money top-ups through Paystack (docs/mobile-money.md). */
  momo: MomoSettings;
}

export interface MomoSettings {
  /** PAYSTACK_SECRET_KEY (sk_live_…): live keys' charges; null: live Mobile Money top-ups are unavailable. */
  liveSecretKey: string | null;
  /** PAYSTACK_TEST_SECRET_KEY (sk_test_…): test keys' charges; null: the built-in sandbox serves them. */
  testSecretKey: string | null;
  /** PAYSTACK_API_URL, without a trailing slash. */
  apiUrl: string;
  /** MOMO_TOPUP_MIN and MOMO_TOPUP_MAX, in pesewas. */
  minAmount: number;
  maxAmount: number;
  /** MOMO_POLL_MS: how often the worker checks each pending charge. */
  pollMs: number;
  /** MOMO_CHARGE_EXPIRES_MS: a charge not paid by then is rejected. */
  chargeExpiresMs: number;
  /** MOMO_PENDING_MAX: how many charges one partner may have pending at once (per mode). */
  pendingMax: number;
  /** MOMO_NUMBER_PROMPTS_PER_HOUR: how many charges one number may be sent in an hour (per mode, across partners). */
  numberPromptsPerHour: number;
}

export interface HubtelSettings {
  apiId: string;
  apiKey: string;
  prepaidDepositId: string;
  /** HUBTEL_POS_SALES_ID: the status endpoint's account. */
  posSalesId: string;
  csUrl: string;
  statusUrl: string;
  /** HUBTEL_BALANCE_URL: the prepaid balance endpoint (float balances, docs/live-delivery.md). */
  balanceUrl: string;
}

export interface ReloadlySettings {
  clientId: string;
  clientSecret: string;
  environment: 'production' | 'sandbox';
  apiUrl: string;
  authUrl: string;
  /** RELOADLY_WEBHOOK_SECRET: verifies signed callbacks; null: the callback route answers 404. */
  webhookSecret: string | null;
}

export interface DtoneSettings {
  apiKey: string;
  apiSecret: string;
  apiUrl: string;
}

export interface UpstreamSettings {
  /** Each upstream's settings when it is enabled, else null (`disabled` says why). */
  hubtel: HubtelSettings | null;
  reloadly: ReloadlySettings | null;
  dtone: DtoneSettings | null;
  /** Why an upstream with some of its variables set is not enabled (for the start-up log). */
  disabled: { provider: 'hubtel' | 'reloadly' | 'dtone'; reason: string }[];
  /** PUBLIC_BASE_URL without a trailing slash, or null: no callback URL is sent. */
  publicBaseUrl: string | null;
  /** PROVIDER_CALLBACK_TOKEN: the path secret of unsigned callbacks, or null (those routes answer 404). */
  callbackToken: string | null;
  /** Calls in flight per upstream per worker (PROVIDER_CONCURRENCY); each call's timeout is workerTuning.providerTimeoutMs. */
  concurrency: number;
  breakerFailures: number;
  breakerCoolMs: number;
  /** An attempt unknown this long marks its delivery as needing attention (DELIVERY_ATTENTION_AFTER_MS). */
  attentionAfterMs: number;
  /** LIVE_SANDBOX=true: in production, live packages without a usable route may go to the sandbox. */
  liveSandbox: boolean;
  /** How often the worker reads the upstreams' float balances (PROVIDER_BALANCE_EVERY_MS). */
  balanceEveryMs: number;
  /** PROVIDER_LOW_BALANCE_<NAME>: below this (the upstream's currency, hundredths) its float is marked LOW. */
  lowBalance: { hubtel: number | null; reloadly: number | null; dtone: number | null };
}

export interface ConsoleSettings {
  /** Whether /console is served at all (CONSOLE_ENABLED, default false). */
  enabled: boolean;
  /** A staff session ends this long after sign-in (CONSOLE_SESSION_TTL_MINUTES, default 480). */
  sessionTtlMs: number;
  /** The session cookie is sent over HTTPS only (CONSOLE_COOKIE_SECURE; default true when NODE_ENV=production). */
  secureCookie: boolean;
  /** Admins must use two-factor sign-in (CONSOLE_REQUIRE_2FA, default false). */
  require2fa: boolean;
}

export interface OperationsSettings {
  /** Bearer token that GET /metrics requires on the API listener (METRICS_TOKEN); null: not served there. */
  metricsToken: string | null;
  /** A separate listener serving only /metrics, without a token (METRICS_PORT); null: none. */
  metricsPort: number | null;
  /** Host of that listener (METRICS_HOST, default 127.0.0.1). */
  metricsHost: string;
  /** After SIGTERM, how long /readyz answers 503 before the listener closes (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** How long a worker's heartbeat may be silent before other workers take its claims over (WORKER_HEARTBEAT_TIMEOUT_MS). */
  heartbeatTimeoutMs: number;
}

export interface WebhookSettings {
  /** Multiplies the retry schedule (WEBHOOK_RETRY_SCALE, default 1; tests run it in seconds). */
  retryScale: number;
  /** An endpoint must answer within this long (WEBHOOK_TIMEOUT_MS, default 10 s). */
  timeoutMs: number;
  /** Whether endpoints may resolve to loopback, private, link-local or metadata addresses (WEBHOOK_ALLOW_PRIVATE_URLS). */
  allowPrivateUrls: boolean;
  /** Deliveries a worker process sends at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Of those, at most this many to one endpoint (WEBHOOK_ENDPOINT_CONCURRENCY), so one slow endpoint cannot take them all. */
  perEndpoint: number;
  /** Events older than this are purged by the worker (EVENT_RETENTION_DAYS, default 30). */
  eventRetentionMs: number;
}

export interface HttpTimeouts {
  /** A request's headers must have arrived this long after it began. */
  headersMs: number;
  /** The whole request, body included, must have arrived this long after it began. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveMs: number;
}

/**
 * The reverse proxies in front (TRUST_PROXY, docs/deployment.md): none; the proxies' addresses and
 * networks (IPv4 or IPv6, CIDR allowed); or a number of proxy hops, the nearest on this host or a
 * private network (see src/http/trust-proxy.ts).
 */
export type TrustProxy = { kind: 'none' } | { kind: 'addresses'; addresses: string[] } | { kind: 'hops'; hops: number };

export interface RateLimits {
  /** Requests per API key per window (RATE_LIMIT_MAX); 0: no limit. */
  perKeyMax: number;
  /** The window, in seconds (RATE_LIMIT_WINDOW_S). */
  windowS: number;
  /** Failed authentications per client address per minute (RATE_LIMIT_AUTH_FAILURES); 0: no limit. */
  authFailuresPerMinute: number;
}

export interface WorkerTuning {
  batchSize: number;
  batchesInFlight: number;
  leaseMs: number;
  idleMaxMs: number;
  providerTimeoutMs: number;
}

/** The outbox worker's defaults (see worker/options.ts for what each means). */
export const DEFAULT_WORKER_TUNING: WorkerTuning = {
  // 100 rather than 50: a batch's claim, reads, plan and attempt insert are shared by twice the
  // deliveries (worker CPU per delivery -10%, a backlog drained ~30% faster; docs/performance.md).
  batchSize: 100,
  batchesInFlight: 4,
  leaseMs: 60_000,
  idleMaxMs: 500,
  providerTimeoutMs: 15_000,
};
const WORKER = DEFAULT_WORKER_TUNING;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function scaleVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(value >= min && value <= max)) throw new ConfigError(name, `must be a number from ${min} to ${max} (got "${raw}")`);
  return value;
}

function booleanVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true or false (got "${env[name]}")`);
}

function enumVar<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const found = allowed.find((a) => a.toLowerCase() === raw.trim().toLowerCase());
  if (!found) throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
  return found;
}

/** The only SQLite location whose directory is created when missing (a fresh clone has no ./data). */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/partner-api.db';

function databaseUrlVar(env: Env): string {
  const raw = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  if (raw.startsWith('sqlite:')) {
    if (raw.length <= 'sqlite:'.length) throw new ConfigError('DATABASE_URL', 'needs a file path after "sqlite:"');
    return raw;
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return raw;
  }
  throw new ConfigError('DATABASE_URL', `must start with "sqlite:" or "postgres://" (got "${raw}")`);
}

function credentialsKeyVar(env: Env, nodeEnv: string): string | null {
  const raw = env.CREDENTIALS_KEY?.trim();
  if (!raw) {
    if (nodeEnv === 'production') {
      throw new ConfigError('CREDENTIALS_KEY', 'is required when NODE_ENV=production (32 bytes, base64)');
    }
    return null;
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || Buffer.from(raw, 'base64').length !== 32) {
    throw new ConfigError('CREDENTIALS_KEY', 'must be 32 bytes encoded as base64 (openssl rand -base64 32)');
  }
  return raw;
}

function httpTimeoutVars(env: Env): HttpTimeouts {
  const requestMs = intVar(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000);
  const headersMs = intVar(env, 'HTTP_HEADERS_TIMEOUT_MS', Math.min(10_000, requestMs), 1000, 600_000);
  // Node refuses a headers timeout longer than the request timeout it is part of.
  if (headersMs > requestMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestMs})`);
  }
  return { headersMs, requestMs, keepAliveMs: intVar(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 600_000) };
}

function redisUrlVar(env: Env): string | null {
  const raw = env.REDIS_URL?.trim();
  if (!raw) return null;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  try {
    new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL', 'is not a valid URL');
  }
  return raw;
}

const MAX_PROXY_HOPS = 32;

function trustProxyVar(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return { kind: 'none' };
  const refuse = (detail: string) =>
    new ConfigError(
      'TRUST_PROXY',
      `must be the proxies' addresses or CIDRs, comma-separated (e.g. 10.0.0.5,10.1.0.0/16,fd00::/8), or a hop count from 1 to ${MAX_PROXY_HOPS} (got "${env.TRUST_PROXY}"${detail})`,
    );
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > MAX_PROXY_HOPS) throw refuse('');
    return { kind: 'hops', hops };
  }
  const addresses = raw.split(',').map((entry) => entry.trim());
  for (const entry of addresses) {
    const [address = '', prefix, extra] = entry.split('/');
    // Canonical literals only (no "127.1", no zone): what the proxy's socket address will look like.
    const family = address.includes('%') ? 0 : isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) throw refuse(entry === '' ? ': an empty entry' : `: "${entry}"`);
  }
  return { kind: 'addresses', addresses };
}

function workerTuningVars(env: Env): WorkerTuning {
  const providerTimeoutMs = intVar(env, 'PROVIDER_TIMEOUT_MS', WORKER.providerTimeoutMs, 100, 600_000);
  const leaseMs = intVar(env, 'WORKER_LEASE_MS', WORKER.leaseMs, 500, 3_600_000);
  // A lease shorter than a provider call would let a second worker take a row still in flight.
  if (leaseMs <= providerTimeoutMs) {
    throw new ConfigError('WORKER_LEASE_MS', `must be longer than PROVIDER_TIMEOUT_MS (${providerTimeoutMs})`);
  }
  return {
    batchSize: intVar(env, 'WORKER_BATCH_SIZE', WORKER.batchSize, 1, 200),
    batchesInFlight: intVar(env, 'WORKER_BATCHES_IN_FLIGHT', WORKER.batchesInFlight, 1, 64),
    idleMaxMs: intVar(env, 'WORKER_IDLE_MS', WORKER.idleMaxMs, 5, 60_000),
    leaseMs,
    providerTimeoutMs,
  };
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = env.NODE_ENV?.trim() || 'development';
  const host = env.HOST?.trim() || '0.0.0.0';
  return {
    port: intVar(env, 'PORT', 8080, 0, 65535),
    host,
    databaseUrl: databaseUrlVar(env),
    sandboxSettleMs: intVar(env, 'SANDBOX_SETTLE_MS', 3000, 0, 86_400_000),
    worker: enumVar(env, 'WORKER', 'inline', ['inline', 'off'] as const),
    credentialsKey: credentialsKeyVar(env, nodeEnv),
    nodeEnv,
    logLevel: enumVar(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    bodyLimitBytes: intVar(env, 'BODY_LIMIT_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024),
    httpTimeouts: httpTimeoutVars(env),
    rateLimits: {
      perKeyMax: intVar(env, 'RATE_LIMIT_MAX', 6000, 0, 10_000_000),
      windowS: intVar(env, 'RATE_LIMIT_WINDOW_S', 60, 1, 86_400),
      authFailuresPerMinute: intVar(env, 'RATE_LIMIT_AUTH_FAILURES', 100, 0, 10_000_000),
    },
    trustProxy: trustProxyVar(env),
    redisUrl: redisUrlVar(env),
    redisKeyPrefix: env.REDIS_KEY_PREFIX?.trim() || 'partner-api:',
    idempotencyTtlMs: intVar(env, 'IDEMPOTENCY_TTL_HOURS', 24, 1, 24 * 365) * 3_600_000,
    orderStuckAfterMs: intVar(env, 'ORDER_STUCK_AFTER_MS', 10 * 60_000, 1000, 30 * 86_400_000),
    adjustmentApprovalAbove: intVar(env, 'ADJUSTMENT_APPROVAL_ABOVE', 500, 0, 1_000_000) * 100,
    topUpApprovalAbove: intVar(env, 'TOPUP_APPROVAL_ABOVE', 500, 0, 1_000_000) * 100,
    sqliteSynchronous: enumVar(env, 'SQLITE_SYNCHRONOUS', 'FULL', ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const),
    databasePoolSize: intVar(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    workerTuning: workerTuningVars(env),
    webhooks: {
      retryScale: scaleVar(env, 'WEBHOOK_RETRY_SCALE', 1, 0.000001, 100),
      timeoutMs: intVar(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      allowPrivateUrls: booleanVar(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', nodeEnv !== 'production'),
      concurrency: intVar(env, 'WEBHOOK_CONCURRENCY', 16, 1, 256),
      perEndpoint: intVar(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 2, 1, 64),
      eventRetentionMs: intVar(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650) * 86_400_000,
    },
    console: {
      enabled: booleanVar(env, 'CONSOLE_ENABLED', false),
      sessionTtlMs: intVar(env, 'CONSOLE_SESSION_TTL_MINUTES', 480, 1, 7 * 24 * 60) * 60_000,
      secureCookie: booleanVar(env, 'CONSOLE_COOKIE_SECURE', nodeEnv === 'production'),
      require2fa: booleanVar(env, 'CONSOLE_REQUIRE_2FA', false),
    },
    operations: operationsVars(env),
    upstreams: upstreamVars(env, nodeEnv),
    momo: momoVars(env),
  };
}

function secretKeyVar(env: Env, name: string, prefix: string): string | null {
  const raw = env[name]?.trim() || null;
  if (raw !== null && !new RegExp(`^${prefix}[A-Za-z0-9_]{8,200}$`).test(raw)) {
    throw new ConfigError(name, `must be a Paystack secret key starting with ${prefix} (the dashboard's Settings, API Keys)`);
  }
  return raw;
}

function momoVars(env: Env): MomoSettings {
  const minGhs = intVar(env, 'MOMO_TOPUP_MIN', 1, 1, 1_000_000);
  const maxGhs = intVar(env, 'MOMO_TOPUP_MAX', 5000, 1, 1_000_000);
  if (maxGhs < minGhs) throw new ConfigError('MOMO_TOPUP_MAX', `must be at least MOMO_TOPUP_MIN (${minGhs})`);
  return {
    liveSecretKey: secretKeyVar(env, 'PAYSTACK_SECRET_KEY', 'sk_live_'),
    testSecretKey: secretKeyVar(env, 'PAYSTACK_TEST_SECRET_KEY', 'sk_test_'),
    apiUrl: urlVar(env, 'PAYSTACK_API_URL', 'https://api.paystack.co'),
    minAmount: minGhs * 100,
    maxAmount: maxGhs * 100,
    pollMs: intVar(env, 'MOMO_POLL_MS', 10_000, 10, 3_600_000),
    chargeExpiresMs: intVar(env, 'MOMO_CHARGE_EXPIRES_MS', 15 * 60_000, 1_000, 7 * 86_400_000),
    pendingMax: intVar(env, 'MOMO_PENDING_MAX', 5, 1, 1_000),
    numberPromptsPerHour: intVar(env, 'MOMO_NUMBER_PROMPTS_PER_HOUR', 3, 1, 1_000),
  };
}

function urlVar(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a valid URL (got "${raw}")`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(name, `must be an http(s) URL (got "${raw}")`);
  return raw.replace(/\/+$/, '');
}

/** The variables an upstream needs: all set → enabled; some set → not enabled, and why; none → off. */
function requiredSet(env: Env, names: string[]): { values: string[] } | { missing: string[] } | null {
  const values = names.map((n) => env[n]?.trim() ?? '');
  const missing = names.filter((_, i) => values[i] === '');
  if (missing.length === names.length) return null;
  return missing.length > 0 ? { missing } : { values };
}

function upstreamVars(env: Env, nodeEnv: string): UpstreamSettings {
  const disabled: UpstreamSettings['disabled'] = [];
  const publicBaseUrl = env.PUBLIC_BASE_URL?.trim() ? urlVar(env, 'PUBLIC_BASE_URL', '') : null;
  const callbackToken = env.PROVIDER_CALLBACK_TOKEN?.trim() || null;
  if (callbackToken !== null && !/^[A-Za-z0-9_-]{32,256}$/.test(callbackToken)) {
    throw new ConfigError('PROVIDER_CALLBACK_TOKEN', 'must be 32 to 256 letters, digits, "-" or "_" (openssl rand -hex 32)');
  }

  let hubtel: HubtelSettings | null = null;
  const hubtelVars = requiredSet(env, ['HUBTEL_API_ID', 'HUBTEL_API_KEY', 'HUBTEL_PREPAID_DEPOSIT_ID']);
  if (hubtelVars && 'missing' in hubtelVars) {
    disabled.push({ provider: 'hubtel', reason: `${hubtelVars.missing.join(', ')} not set` });
  } else if (hubtelVars) {
    const [apiId = '', apiKey = '', prepaidDepositId = ''] = hubtelVars.values;
    const posSalesId = env.HUBTEL_POS_SALES_ID?.trim() ?? '';
    if (posSalesId === '') throw new ConfigError('HUBTEL_POS_SALES_ID', 'is required with HUBTEL_API_ID (status checks need it)');
    const settings = {
      apiId,
      apiKey,
      prepaidDepositId,
      posSalesId,
      csUrl: urlVar(env, 'HUBTEL_CS_URL', 'https://cs.hubtel.com/commissionservices'),
      statusUrl: urlVar(env, 'HUBTEL_STATUS_URL', 'https://api-txnstatus.hubtel.com'),
      balanceUrl: urlVar(env, 'HUBTEL_BALANCE_URL', 'https://trnf.hubtel.com/api/inter-transfers'),
    };
    if (publicBaseUrl === null) disabled.push({ provider: 'hubtel', reason: 'PUBLIC_BASE_URL not set (Hubtel requires a callback URL)' });
    else if (callbackToken === null) disabled.push({ provider: 'hubtel', reason: 'PROVIDER_CALLBACK_TOKEN not set (its callback URL needs it)' });
    else hubtel = settings;
  }

  let reloadly: ReloadlySettings | null = null;
  const reloadlyVars = requiredSet(env, ['RELOADLY_CLIENT_ID', 'RELOADLY_CLIENT_SECRET']);
  if (reloadlyVars && 'missing' in reloadlyVars) {
    disabled.push({ provider: 'reloadly', reason: `${reloadlyVars.missing.join(', ')} not set` });
  } else if (reloadlyVars) {
    const [clientId = '', clientSecret = ''] = reloadlyVars.values;
    const environment = enumVar(env, 'RELOADLY_ENVIRONMENT', 'production', ['production', 'sandbox'] as const);
    reloadly = {
      clientId,
      clientSecret,
      environment,
      apiUrl: urlVar(env, 'RELOADLY_API_URL', environment === 'production' ? 'https://topups.reloadly.com' : 'https://topups-sandbox.reloadly.com'),
      authUrl: urlVar(env, 'RELOADLY_AUTH_URL', 'https://auth.reloadly.com'),
      webhookSecret: env.RELOADLY_WEBHOOK_SECRET?.trim() || null,
    };
  }

  let dtone: DtoneSettings | null = null;
  const dtoneVars = requiredSet(env, ['DTONE_API_KEY', 'DTONE_API_SECRET']);
  if (dtoneVars && 'missing' in dtoneVars) {
    disabled.push({ provider: 'dtone', reason: `${dtoneVars.missing.join(', ')} not set` });
  } else if (dtoneVars) {
    const [apiKey = '', apiSecret = ''] = dtoneVars.values;
    dtone = { apiKey, apiSecret, apiUrl: urlVar(env, 'DTONE_API_URL', 'https://dvs-api.dtone.com/v1') };
  }

  return {
    hubtel,
    reloadly,
    dtone,
    disabled,
    publicBaseUrl,
    callbackToken,
    concurrency: intVar(env, 'PROVIDER_CONCURRENCY', 32, 1, 1024),
    breakerFailures: intVar(env, 'PROVIDER_BREAKER_FAILURES', 5, 1, 1000),
    breakerCoolMs: intVar(env, 'PROVIDER_BREAKER_COOL_MS', 60_000, 100, 86_400_000),
    attentionAfterMs: intVar(env, 'DELIVERY_ATTENTION_AFTER_MS', 30 * 60_000, 1000, 30 * 86_400_000),
    liveSandbox: booleanVar(env, 'LIVE_SANDBOX', nodeEnv !== 'production'),
    balanceEveryMs: intVar(env, 'PROVIDER_BALANCE_EVERY_MS', 5 * 60_000, 1_000, 86_400_000),
    lowBalance: {
      hubtel: amountVar(env, 'PROVIDER_LOW_BALANCE_HUBTEL'),
      reloadly: amountVar(env, 'PROVIDER_LOW_BALANCE_RELOADLY'),
      dtone: amountVar(env, 'PROVIDER_LOW_BALANCE_DTONE'),
    },
  };
}

/** An amount such as 500 or 1250.50 (at most two decimals), in hundredths; null when unset. */
function amountVar(env: Env, name: string): number | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return null;
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(raw)) throw new ConfigError(name, `must be an amount such as 500 or 1250.50 (got "${raw}")`);
  return Math.round(Number(raw) * 100);
}

function operationsVars(env: Env): OperationsSettings {
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && !/^[\x21-\x7e]{16,256}$/.test(token)) {
    throw new ConfigError('METRICS_TOKEN', 'must be 16 to 256 printable characters without spaces (openssl rand -hex 32)');
  }
  const port = env.METRICS_PORT?.trim() ? intVar(env, 'METRICS_PORT', 0, 0, 65535) : null;
  return {
    metricsToken: token,
    metricsPort: port,
    metricsHost: env.METRICS_HOST?.trim() || '127.0.0.1',
    shutdownGraceMs: intVar(env, 'SHUTDOWN_GRACE_MS', 0, 0, 600_000),
    heartbeatTimeoutMs: intVar(env, 'WORKER_HEARTBEAT_TIMEOUT_MS', 5_000, 1_000, 600_000),
  };
}
