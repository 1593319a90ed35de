import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliSpawnOptions {
  /** Working directory (default: the repository). */
  cwd?: string;
  /** Run as this user and group (the test runner must be root). */
  uid?: number;
  gid?: number;
}

/** The CLI as a child process; `--import` names tsx by path so that any working directory works. */
export function spawnCli(args: string[], env: Record<string, string>, options: CliSpawnOptions = {}): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'src/cli/index.ts'), ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  });
}

/** Runs the CLI as a user would (`npm run cli -- …` minus npm), with a bounded wait. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 30_000, options: CliSpawnOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Environment for a CLI child process on a test's own database (PostgreSQL: its schema through the
 * connection string's `options`), with a credentials key of its own.
 */
export function cliDatabaseEnv(testDb: { url: string; pgSchema?: string }): Record<string, string> {
  let url = testDb.url;
  if (testDb.pgSchema) {
    url += `${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${testDb.pgSchema}`)}`;
  }
  return { DATABASE_URL: url, CREDENTIALS_KEY: randomBytes(32).toString('base64'), NODE_ENV: 'test' };
}
