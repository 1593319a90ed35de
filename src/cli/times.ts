import { CliError } from './runtime.js';

/** ISO 8601 with a time and a zone: 2026-11-25T00:00:00Z, 2026-11-25T00:00Z, 2026-11-25T01:00:00+01:00. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A time option in ISO 8601 (docs/cli.md): unix ms, or a one-line CliError naming the option. */
export function parseTime(option: string, text: string): number {
  const trimmed = text.trim();
  const ms = ISO_TIME.test(trimmed) ? Date.parse(trimmed) : NaN;
  if (!Number.isFinite(ms)) throw new CliError(`${option} must be a time in ISO 8601 with its zone, such as 2026-11-25T00:00:00Z (got "${text}")`);
  return ms;
}

/** The window of --from and --to: to after from. */
export function parseWindow(opts: { from: string; to: string }): { from: number; to: number } {
  const from = parseTime('--from', opts.from);
  const to = parseTime('--to', opts.to);
  if (to <= from) throw new CliError('--to must be after --from');
  return { from, to };
}
