import type { Clock } from '../../domain/types.js';
import type { Providers } from '../../providers/index.js';
import { UPSTREAM_NAMES, type UpstreamBooks, type UpstreamName } from '../../providers/types.js';
import type { FloatRepository } from './repository.js';

/**
 * Each enabled upstream's float (docs/live-delivery.md, "Float balances"): Reloadly and DT One are
 * read every PROVIDER_BALANCE_EVERY_MS by the worker; Hubtel has no balance read, so its float is
 * unknown until a purchase is refused for it. LOW: below PROVIDER_LOW_BALANCE_<NAME> (the
 * upstream's currency), or refused for insufficient float since the last reading and since the
 * upstream last took a submission.
 */
export interface FloatLine {
  provider: UpstreamName;
  /** The upstream's currency, or null when never read (Hubtel: never). */
  currency: string | null;
  /** Hundredths of `currency`, or null when unknown. */
  available: number | null;
  readAt: number | null;
  /** How old the reading is (ms), or null. */
  ageMs: number | null;
  /** Why the last reading failed (the one before it stays shown), or null. */
  readError: string | null;
  errorAt: number | null;
  refusedAt: number | null;
  /** Hundredths, or null when no PROVIDER_LOW_BALANCE_<NAME> is set. */
  threshold: number | null;
  /** Whether the upstream has a balance read at all (Hubtel: no). */
  readable: boolean;
  low: boolean;
  /** Why it is LOW, in words, or null. */
  lowBecause: string | null;
}

/** Upstreams whose float the worker reads (Hubtel's is unknown until a refusal). */
export const READABLE_FLOATS: readonly UpstreamName[] = ['reloadly', 'dtone'];

export class FloatService {
  constructor(
    private readonly rows: FloatRepository,
    private readonly enabled: ReadonlySet<string>,
    private readonly thresholds: Record<UpstreamName, number | null>,
    private readonly clock: Clock,
  ) {}

  /** Reads every enabled upstream's balance that can be read, and stores each; returns how many were read. */
  async readAll(providers: Providers): Promise<number> {
    let read = 0;
    for (const name of READABLE_FLOATS) {
      const adapter = providers.adapter(name) as (UpstreamBooks & object) | undefined;
      if (!adapter?.balance) continue;
      const now = this.clock();
      try {
        const reading = await adapter.balance();
        if (reading === null) {
          await this.rows.readFailed(name, `${name} did not give a balance we can read`, now);
          continue;
        }
        await this.rows.reading(name, reading.currency.toUpperCase(), Math.round(reading.available * 100), now);
        read++;
      } catch (error) {
        await this.rows.readFailed(name, error instanceof Error ? error.message : String(error), now);
      }
    }
    return read;
  }

  /** A purchase was refused for insufficient float (the breaker rests the upstream at once). */
  async refused(provider: string): Promise<void> {
    await this.rows.refused(provider, this.clock());
  }

  /** Every enabled upstream's float as staff see it, in a fixed order. */
  async lines(): Promise<FloatLine[]> {
    const now = this.clock();
    const stored = new Map((await this.rows.all()).map((row) => [row.provider, row]));
    const lines: FloatLine[] = [];
    for (const provider of UPSTREAM_NAMES) {
      if (!this.enabled.has(provider)) continue;
      const row = stored.get(provider);
      const available = row?.available === null || row?.available === undefined ? null : Number(row.available);
      const readAt = row?.read_at === null || row?.read_at === undefined ? null : Number(row.read_at);
      const refusedAt = row?.refused_at === null || row?.refused_at === undefined ? null : Number(row.refused_at);
      const threshold = this.thresholds[provider];
      let lowBecause: string | null = null;
      if (available !== null && threshold !== null && available < threshold) lowBecause = 'below the threshold';
      else if (refusedAt !== null && refusedAt > (readAt ?? 0)) {
        const taken = await this.rows.lastTaken(provider);
        if (taken === null || refusedAt > taken) lowBecause = 'refused for insufficient float';
      }
      lines.push({
        provider,
        currency: row?.currency ?? null,
        available,
        readAt,
        ageMs: readAt === null ? null : Math.max(0, now - readAt),
        readError: row?.read_error ?? null,
        errorAt: row?.error_at === null || row?.error_at === undefined ? null : Number(row.error_at),
        refusedAt,
        threshold,
        readable: READABLE_FLOATS.includes(provider),
        low: lowBecause !== null,
        lowBecause,
      });
    }
    return lines;
  }
}
