/** A seed file the import refuses; the message names the bad entry, and nothing was written. */
export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

/** `dataPackages[3] (id "pkg_x")` — how a message names an entry of the file. */
export function entryName(seed: unknown, section: string, index: number): string {
  const list = (seed as Record<string, unknown>)[section];
  const entry = Array.isArray(list) ? (list[index] as { id?: unknown } | undefined) : undefined;
  const id = typeof entry?.id === 'string' ? ` (id "${entry.id}")` : '';
  return `${section}[${index}]${id}`;
}
