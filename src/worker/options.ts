import { ConfigError } from '../config.js';

/** Tuning of the outbox worker. Defaults suit production; tests shorten them. */
export interface WorkerOptions {
  /** Rows claimed per step; they are processed concurrently. */
  batchSize: number;
  /** How long a claim is exclusive; a crashed worker's rows become claimable after it. */
  leaseMs: number;
  /** A provider call slower than this counts as a retryable failure. */
  providerTimeoutMs: number;
  /** Longest sleep when nothing is due (the loop also wakes for the next scheduled row). */
  idleMaxMs: number;
  /** Retry delay after the first failure; doubles per failure up to backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Next poll of a pending delivery when the provider gives no hint. */
  pollIntervalMs: number;
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  batchSize: 10,
  leaseMs: 60_000,
  providerTimeoutMs: 15_000,
  idleMaxMs: 500,
  backoffBaseMs: 1_000,
  backoffMaxMs: 5 * 60_000,
  pollIntervalMs: 2_000,
};

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

/**
 * Worker settings from the environment (WORKER_LEASE_MS, WORKER_BATCH_SIZE, WORKER_IDLE_MS,
 * PROVIDER_TIMEOUT_MS);
 * a bad value throws ConfigError naming the variable. The lease must outlast a provider call.
 */
export function loadWorkerOptions(env: Env = process.env): WorkerOptions {
  const providerTimeoutMs = intVar(env, 'PROVIDER_TIMEOUT_MS', DEFAULT_WORKER_OPTIONS.providerTimeoutMs, 100, 600_000);
  const leaseMs = intVar(env, 'WORKER_LEASE_MS', DEFAULT_WORKER_OPTIONS.leaseMs, 500, 3_600_000);
  if (leaseMs <= providerTimeoutMs) {
    throw new ConfigError('WORKER_LEASE_MS', `must be longer than PROVIDER_TIMEOUT_MS (${providerTimeoutMs})`);
  }
  return {
    ...DEFAULT_WORKER_OPTIONS,
    batchSize: intVar(env, 'WORKER_BATCH_SIZE', DEFAULT_WORKER_OPTIONS.batchSize, 1, 200),
    idleMaxMs: intVar(env, 'WORKER_IDLE_MS', DEFAULT_WORKER_OPTIONS.idleMaxMs, 5, 60_000),
    leaseMs,
    providerTimeoutMs,
  };
}

/** Exponential backoff with jitter: about base·2^(tries-1), capped, never below half of it. */
export function backoffDelay(tries: number, options: Pick<WorkerOptions, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  const exponent = Math.min(Math.max(tries - 1, 0), 30);
  const delay = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** exponent);
  return Math.round(delay / 2 + Math.random() * (delay / 2));
}
