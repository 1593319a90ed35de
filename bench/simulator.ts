// The Reloadly simulator of a built tree, in a process of its own (so its CPU is not the bench's):
// argv[2] is JSON { root, latencyMs, settleMs }. Prints one JSON line { url, env } once it listens,
// then serves until SIGTERM. Its account starts with more than any run can spend (the simulator
// debits every top-up, and `cli simulate` starts it with 10 000 GHS).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { startReloadlySimulator as Start } from '../src/providers/reloadly/simulator.js';

const args = JSON.parse(process.argv[2] ?? '{}') as { root: string; latencyMs: number; settleMs: number };
const module = (await import(pathToFileURL(path.join(args.root, 'dist/providers/reloadly/simulator.js')).href)) as {
  startReloadlySimulator: typeof Start;
};
const simulator = await module.startReloadlySimulator({
  behaviour: { latencyMs: args.latencyMs, settleMs: args.settleMs },
  openingBalance: 1e12,
});
process.stdout.write(`${JSON.stringify({ url: simulator.url, env: simulator.env })}\n`);
await new Promise<void>((resolve) => {
  process.once('SIGTERM', () => resolve());
  process.once('SIGINT', () => resolve());
});
await simulator.close();
