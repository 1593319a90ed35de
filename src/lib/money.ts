/**
 * Money is integer pesewas inside the service; GHS numbers exist only at the wire edge.
 */
export type Pesewas = number;

/** Pesewas → GHS number for a response (exact for every integer below 2^53 / 100). */
export function toGhs(pesewas: Pesewas): number {
  return pesewas / 100;
}

export function nullableGhs(pesewas: Pesewas | null): number | null {
  return pesewas === null ? null : toGhs(pesewas);
}

/**
 * GHS number from a request or seed → pesewas. Returns null when the value is not a finite,
 * non-negative amount with at most two decimals.
 */
export function fromGhs(ghs: number): Pesewas | null {
  if (!Number.isFinite(ghs) || ghs < 0) return null;
  const pesewas = Math.round(ghs * 100);
  // 12.345 * 100 = 1234.5 → refuse; 0.1 + 0.2 style noise (30.000000000000004) is accepted.
  if (Math.abs(pesewas - ghs * 100) > 1e-6) return null;
  if (!Number.isSafeInteger(pesewas)) return null;
  return pesewas;
}

/** Pesewas as people read them in messages and the CLI: `GHS 12.50`. */
export function formatGhs(pesewas: Pesewas): string {
  return `GHS ${toGhs(pesewas).toFixed(2)}`;
}
