import type { TestApp } from './app.js';

/** How many credentials of `packageId` the catalog offers `key`'s caller. */
export async function stockOf(t: TestApp, key: string, packageId: string): Promise<number> {
  const res = await t.call('GET', '/api/v1/result-checker/packages', { key });
  const pkg = (res.body.data as { _id: string; stockAvailable: number }[]).find((p) => p._id === packageId);
  if (!pkg) throw new Error(`package ${packageId} not listed`);
  return pkg.stockAvailable;
}
