// The DT One simulator of a built tree in a process of its own (its CPU is not the bench's), loaded
// with a day of transactions: argv[2] is JSON { root, count, from, prefix, reversed }. Transaction i
// is our reference `<prefix><i>`, created at from + i * (1 day / count), COMPLETED (the first
// `reversed` of them REVERSED). Prints one JSON line { url, env } once it listens; serves until SIGTERM.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { startDtoneSimulator as Start } from '../src/providers/dtone/simulator.js';

const args = JSON.parse(process.argv[2] ?? '{}') as { root: string; count: number; from: number; prefix: string; reversed: number };
const module = (await import(pathToFileURL(path.join(args.root, 'dist/providers/dtone/simulator.js')).href)) as { startDtoneSimulator: typeof Start };
const simulator = await module.startDtoneSimulator({ balance: 1e12 });
const step = 86_400_000 / args.count;
simulator.load(
  Array.from({ length: args.count }, (_, i) => ({
    externalId: `${args.prefix}${i}`,
    productId: 35211,
    mobileNumber: `+233${240000000 + i}`,
    createdAt: Math.floor(args.from + i * step),
    status: i < args.reversed ? ('REVERSED' as const) : ('COMPLETED' as const),
  })),
);
process.stdout.write(`${JSON.stringify({ url: simulator.url, env: simulator.env })}\n`);
await new Promise<void>((resolve) => {
  process.once('SIGTERM', () => resolve());
  process.once('SIGINT', () => resolve());
});
await simulator.close();
