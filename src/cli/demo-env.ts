import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_DATABASE_URL } from '../config.js';

/**
 * The demo's upstream settings for the CLI beside it (docs/cli.md, "Next to a running demo"): the
 * demo writes the variables that point at its simulators to `demo.env` beside its SQLite database;
 * a CLI command on that same database reads them, for the variables its environment leaves unset,
 * while the demo that wrote them runs. On PostgreSQL the demo prints them instead.
 */

const FILE = 'demo.env';

/** The SQLite file of `databaseUrl` (the default when unset), or null on PostgreSQL. */
function sqliteFile(databaseUrl: string | undefined): string | null {
  const url = databaseUrl?.trim() || DEFAULT_DATABASE_URL;
  return url.startsWith('sqlite:') ? path.resolve(url.slice('sqlite:'.length)) : null;
}

/** Where the demo of `databaseUrl` writes its settings, or null (PostgreSQL). */
export function demoEnvFile(databaseUrl: string | undefined): string | null {
  const file = sqliteFile(databaseUrl);
  return file === null ? null : path.join(path.dirname(file), FILE);
}

/** Writes the settings of the demo running as `pid` on `databaseUrl`, readable by its owner only. */
export function writeDemoEnv(databaseUrl: string | undefined, vars: Record<string, string>, pid = process.pid): string | null {
  const file = demoEnvFile(databaseUrl);
  if (file === null) return null;
  const lines = [
    '# Written by `npm run demo` while it runs: the CLI on the same database reads these (docs/cli.md).',
    `DEMO_PID=${pid}`,
    `DEMO_DATABASE=${sqliteFile(databaseUrl) ?? ''}`,
    ...Object.entries(vars).map(([name, value]) => `${name}=${value}`),
  ];
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

/** Removes the settings the demo running as `pid` wrote (another demo's are left alone). */
export function removeDemoEnv(databaseUrl: string | undefined, pid = process.pid): void {
  const file = demoEnvFile(databaseUrl);
  if (file !== null && readDemoEnv(file)?.pid === pid) fs.rmSync(file, { force: true });
}

function readDemoEnv(file: string): { pid: number; database: string; vars: Record<string, string> } | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) vars[match[1]] = match[2];
  }
  const { DEMO_PID: pid, DEMO_DATABASE: database, ...rest } = vars;
  if (pid === undefined || database === undefined || !/^\d+$/.test(pid)) return null;
  return { pid: Number(pid), database, vars: rest };
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `env` with the settings of a demo running on its database filled in where `env` leaves them unset
 * (or empty); `env` itself when there is no such demo, or when the command is the demo's own.
 */
export function withDemoEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const file = demoEnvFile(env.DATABASE_URL);
  if (file === null) return env;
  const found = readDemoEnv(file);
  if (!found || found.pid === process.pid || found.database !== sqliteFile(env.DATABASE_URL) || !running(found.pid)) return env;
  const filled: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(found.vars)) if (!filled[name]?.trim()) filled[name] = value;
  return filled;
}
