import type { Mode } from '../../../domain/types.js';

/**
 * What every console list shares: the live/test switch (default live, shown on the page, kept in
 * every link) and keyset paging ("Newer"/"Older" links carrying a cursor, see src/lib/staff-page.ts).
 */
export interface ModeSwitch {
  current: Mode;
  choices: { mode: Mode; href: string; current: boolean }[];
}

export interface PagingLinks {
  newer: string | null;
  older: string | null;
}

/** A partner as the pages show one: the name (the id when the profile has none) linking to its page. */
export interface PartnerRef {
  id: string;
  name: string;
  href: string;
}

export const partnerRef = (profileId: string, names: ReadonlyMap<string, string>): PartnerRef => ({
  id: profileId,
  name: names.get(profileId) || profileId,
  href: `/console/partners/${encodeURIComponent(profileId)}`,
});

/** `path?query` of the filled-in parameters only. */
export function href(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The switch to the other mode keeps the filters but starts again at the first page. */
export function modeSwitch(path: string, filters: Record<string, string | undefined>, mode: Mode): ModeSwitch {
  return {
    current: mode,
    choices: (['live', 'test'] as const).map((m) => ({ mode: m, href: href(path, { ...filters, mode: m }), current: m === mode })),
  };
}

export function pagingLinks(path: string, filters: Record<string, string | undefined>, mode: Mode, page: { newer: string | null; older: string | null }): PagingLinks {
  return {
    newer: page.newer === null ? null : href(path, { ...filters, mode, newer: page.newer }),
    older: page.older === null ? null : href(path, { ...filters, mode, older: page.older }),
  };
}
