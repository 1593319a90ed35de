import net from 'node:net';
import { after } from 'node:test';
import { createTestApp, type TestApp } from './app.js';
import type { CliProcess } from './cli.js';
import { liveKeyOf } from './keys.js';
import { ledgerProblems } from './ledger.js';
import { agentProfile, fixtureWith } from './seed.js';

/** A profile with a wallet no load test empties (1 000 000 GHS live). */
export const LOAD_PROFILE = 'usr_load';
export const LOAD_KEY = liveKeyOf(LOAD_PROFILE);

/**
 * What a suite of process tests starts: its test apps and CLI processes, each recorded as it is
 * started, and after the suite every process killed (and waited for) before the apps close.
 * Called inside the suite's describe().
 */
export function suiteProcesses(): { apps: TestApp[]; children: CliProcess[] } {
  const apps: TestApp[] = [];
  const children: CliProcess[] = [];
  after(async () => {
    for (const child of children) child.kill();
    await Promise.all(children.map((child) => child.exited()));
    for (const t of apps) await t.close();
  });
  return { apps, children };
}

export function loadTestApp(): Promise<TestApp> {
  return createTestApp({ seed: fixtureWith({ profiles: [agentProfile(LOAD_PROFILE, { role: 'SuperAgent', live: 1_000_000 })] }) });
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/**
 * A free port below the kernel's ephemeral range (ip_local_port_range starts at 32768): a port the
 * caller must know before it listens (an address given to others first) and then keep free for
 * seconds. freePort()'s ephemeral ports can be taken meanwhile by any outgoing connection of a busy
 * machine; ports here only by another listener choosing one.
 */
export async function quietPort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = net.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
  throw new Error('no free port below the ephemeral range');
}

export interface PurchaseLoad {
  /** Order ids the API acknowledged (200). */
  acknowledged: string[];
  /** Other answers by status (a request refused outright, e.g. a connection error, counts as 0). */
  refused: Map<number, number>;
  /** Stops sending; resolves once every request in flight has been answered or has failed. */
  stop(): Promise<void>;
}

let counter = 0;
/** A fresh beneficiary each call (never one of the sandbox's test endings 0000–0004). */
export function loadMsisdn(): string {
  const c = counter++ % 7_000_000;
  // Four last digits from 0005 to 9999: no number repeats, none is a test ending.
  return `024${1_000_000 + Math.floor(c / 9995) * 10_000 + 5 + (c % 9995)}`;
}

/**
 * `concurrency` loops, each POSTing buy-single to one of `urls` (round robin) and the next as soon
 * as the answer comes, until stop(). `msisdn` chooses each beneficiary.
 */
export function purchaseLoad(
  urls: string[],
  options: { concurrency: number; key?: string; msisdn?: () => string; onAnswer?: (status: number) => void },
): PurchaseLoad {
  const acknowledged: string[] = [];
  const refused = new Map<number, number>();
  let running = true;
  let n = 0;
  const loop = async () => {
    while (running) {
      const url = urls[n++ % urls.length];
      let status = 0;
      try {
        const res = await fetch(`${url}/api/v1/data-bundles/buy-single`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': options.key ?? LOAD_KEY },
          body: JSON.stringify({
            operatorId: 'op_a',
            productId: 'prd_a',
            packageId: 'pkg_a_1gb',
            beneficiaryMsisdn: (options.msisdn ?? loadMsisdn)(),
          }),
        });
        status = res.status;
        const body = (await res.json()) as { data?: { orderId?: string } };
        if (status === 200 && body.data?.orderId) acknowledged.push(body.data.orderId);
      } catch {
        // refused or reset: the process is gone or going
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (status !== 200) refused.set(status, (refused.get(status) ?? 0) + 1);
      options.onAnswer?.(status);
    }
  };
  const loops = Array.from({ length: options.concurrency }, loop);
  return {
    acknowledged,
    refused,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Orders of `ids` that are not yet final (completed or failed). */
export async function openOrders(t: TestApp, ids: readonly string[]): Promise<string[]> {
  const open: string[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await t.database.db
      .selectFrom('orders')
      .select(['id', 'state'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    const found = new Map(rows.map((r) => [r.id, r.state]));
    for (const id of ids.slice(i, i + 500)) {
      const state = found.get(id);
      if (state !== 'completed' && state !== 'failed') open.push(id);
    }
  }
  return open;
}

/**
 * What must hold once every acknowledged order is final: each delivery of the database was
 * submitted under one idempotency key (its first attempt) and settled once, and the ledger is clean.
 */
export async function deliveryInvariants(t: TestApp): Promise<string[]> {
  const problems: string[] = [];
  const items = await t.database.db.selectFrom('order_items').select(['id', 'attempt', 'status']).execute();
  // Each sandbox submission is taken under an attempt's reference: which item it delivers to.
  const submissions = await t.database.db
    .selectFrom('sandbox_submissions as s')
    .leftJoin('provider_attempts as a', 'a.reference', 's.idempotency_key')
    .select(['s.idempotency_key', 'a.order_item_id'])
    .execute();
  const keysPerItem = new Map<string, string[]>();
  for (const s of submissions) {
    if (s.order_item_id === null) {
      problems.push(`sandbox submission ${s.idempotency_key} has no attempt of ours`);
      continue;
    }
    keysPerItem.set(s.order_item_id, [...(keysPerItem.get(s.order_item_id) ?? []), s.idempotency_key]);
  }
  for (const item of items) {
    const keys = keysPerItem.get(item.id) ?? [];
    if (Number(item.attempt) !== 1) problems.push(`item ${item.id} is at attempt ${item.attempt}`);
    if (keys.length > 1) problems.push(`item ${item.id} was taken by the sandbox as ${keys.join(', ')}`);
  }
  const settles = await t.database.db
    .selectFrom('ledger_entries')
    .select((eb) => ['order_item_id', eb.fn.countAll<number>().as('n')])
    .where('kind', 'in', ['data_settle', 'data_release'])
    .groupBy('order_item_id')
    .execute();
  for (const s of settles) if (Number(s.n) !== 1) problems.push(`item ${s.order_item_id} settled ${s.n} times`);
  problems.push(...(await ledgerProblems(t)));
  return problems;
}
