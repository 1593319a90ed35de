import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a user would (`npm run cli -- …` minus npm), with a bounded wait. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/index.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
