import { CliError } from './runtime.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration as the CLI prints it (`10s`, `5m`, `10m0s`, `1h30m`) or a bare number of
 * milliseconds (`600000`, the form accepted before). Throws a one-line CliError naming the option.
 */
export function parseDuration(option: string, text: string): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const parts = [...trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) {
    throw new CliError(`${option} must be a duration such as 10s, 5m, 1h30m or a number of milliseconds (got "${text}")`);
  }
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_MS[p[2] ?? ''] ?? 0), 0);
  if (!Number.isSafeInteger(ms)) throw new CliError(`${option} is too long`);
  return ms;
}

/** A duration the way the CLI prints it and parseDuration reads it back: `45s`, `10m0s`, `2h5m`. */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
  if (minutes >= 1) return `${minutes}m${Math.floor((ms % 60_000) / 1000)}s`;
  return `${Math.floor(ms / 1000)}s`;
}
