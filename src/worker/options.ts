import { DEFAULT_WORKER_TUNING, type WorkerTuning } from '../config.js';

/** Tuning of the outbox worker. Defaults suit production; tests shorten them. */
export interface WorkerOptions {
  /** Rows claimed per step; they are processed concurrently. */
  batchSize: number;
  /**
   * Claimed batches processed at once: the next is claimed while earlier ones still run. The worker
   * adds as many as its enabled upstreams' call slots fill (OutboxWorker.batchLimit).
   */
  batchesInFlight: number;
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
  ...DEFAULT_WORKER_TUNING,
  backoffBaseMs: 1_000,
  backoffMaxMs: 5 * 60_000,
  pollIntervalMs: 2_000,
};

/** The worker options for a configuration (the env-tunable part lives in config.ts). */
export function workerOptionsFrom(tuning: WorkerTuning): WorkerOptions {
  return { ...DEFAULT_WORKER_OPTIONS, ...tuning };
}

/** Exponential backoff with jitter: about base·2^(tries-1), capped, never below half of it. */
export function backoffDelay(tries: number, options: Pick<WorkerOptions, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  const exponent = Math.min(Math.max(tries - 1, 0), 30);
  const delay = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** exponent);
  return Math.round(delay / 2 + Math.random() * (delay / 2));
}
