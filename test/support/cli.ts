import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { CliIo } from '../../src/cli/io.js';
import { runProgram } from '../../src/cli/program.js';
import type { TestApp } from './app.js';
import { ROOT } from './repo.js';
import { PROCESS_BUDGET_MS } from './wait.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The node arguments that start the CLI. scripts/run-tests.mjs sets TEST_CLI=dist once it has made
 * sure dist/ is compiled from the current src/ (it builds it when it is missing or older): the
 * compiled entry starts in a fraction of the CPU time tsx needs to compile src/ on every start,
 * which is what a loaded machine runs short of. Anywhere else (a test file run on its own, a
 * failed build) the CLI runs from src/ through tsx, as `npm run cli` does.
 */
export function cliCommand(): string[] {
  if (process.env.TEST_CLI === 'dist') return [path.join(ROOT, 'dist/cli/index.js')];
  // tsx by path, so that the CLI starts from any working directory.
  return ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'src/cli/index.ts')];
}

export interface CliSpawnOptions {
  /** Working directory (default: the repository). */
  cwd?: string;
  /** Run as this user and group (the test runner must be root). */
  uid?: number;
  gid?: number;
}

/** A CLI child process with its stdout and stderr collected. */
export interface CliProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr as they arrived. */
  output(): string;
  /** Resolves once `text` appears in the output; fails if the process ends first, or after `budgetMs`. */
  waitForOutput(text: string, budgetMs?: number): Promise<void>;
  /** Resolves with the exit code once the process has ended (null if a signal ended it); fails after `budgetMs`. */
  exited(budgetMs?: number): Promise<number | null>;
  /** SIGKILL, if it is still running. */
  kill(): void;
}

/** Starts `cli <args>` as a user would (`npm run cli -- …` minus npm), in the repository root unless told otherwise. */
export function spawnCli(args: string[], env: Record<string, string>, options: CliSpawnOptions = {}): CliProcess {
  const child = spawn(process.execPath, [...cliCommand(), ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  });
  const name = `cli ${args.join(' ')}`;
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    output += d.toString();
  });
  // 'close' comes after the process exited and its output was read to the end; a process that
  // could not be started at all only reports 'error'.
  let spawnError: Error | undefined;
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const closed = new Promise<void>((resolve) => {
    child.on('close', (code, signal) => {
      ended = { code, signal };
      resolve();
    });
    child.on('error', (error) => {
      spawnError = error;
      if (child.pid === undefined) resolve();
    });
  });
  const describeEnd = () => (spawnError ? `failed to start: ${spawnError.message}` : `exited with ${ended?.signal ?? `code ${ended?.code}`}`);

  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    waitForOutput(text, budgetMs = PROCESS_BUDGET_MS) {
      return new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.stderr.off('data', check);
          if (error) reject(error);
          else resolve();
        };
        function check() {
          if (output.includes(text)) done();
        }
        const timer = setTimeout(() => done(new Error(`timed out after ${budgetMs} ms waiting for ${name} to print "${text}"; its output:\n${output}`)), budgetMs);
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        void closed.then(() => {
          if (output.includes(text)) done();
          else done(new Error(`${name} ${describeEnd()} before printing "${text}"; its output:\n${output}`));
        });
        check();
      });
    },
    exited(budgetMs = PROCESS_BUDGET_MS) {
      let timer: NodeJS.Timeout | undefined;
      const budget = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name} did not exit within ${budgetMs} ms; its output:\n${output}`)), budgetMs);
      });
      const code = closed.then(() => {
        if (spawnError && child.pid === undefined) throw new Error(`${name} ${describeEnd()}`);
        return ended?.code ?? null;
      });
      return Promise.race([code, budget]).finally(() => clearTimeout(timer));
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Runs `cli <args>` inside this process, as `npm run cli -- …` would run it (the same program,
 * src/cli/program.ts, with the environment `env` over this process's and LOG_LEVEL=warn), and
 * collects what it writes: its log lines go to its standard output, as pino's do in a process.
 * Fails if it has not finished within `budgetMs`. `options.stdin` is what it reads on its standard
 * input (--password-stdin); empty when not given. A test about the process itself (exit on a
 * signal, a start-up refusal, another user or working directory) uses runCliProcess.
 */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  budgetMs = PROCESS_BUDGET_MS,
  options: { stdin?: string } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = new CliIo(
    { ...process.env, LOG_LEVEL: 'warn', ...env },
    (text) => void (stdout += text),
    (text) => void (stderr += text),
    { write: (line: string) => void (stdout += line) },
    () => Promise.resolve(options.stdin ?? ''),
  );
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`cli ${args.join(' ')} did not finish within ${budgetMs} ms; its output:\n${stdout}${stderr}`)), budgetMs);
  });
  try {
    const { exitCode } = await Promise.race([runProgram(args, io), budget]);
    return { code: exitCode, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `cli <args>` as a process to completion; fails (and kills it) if it has not finished within `budgetMs`. */
export async function runCliProcess(
  args: string[],
  env: Record<string, string>,
  budgetMs = PROCESS_BUDGET_MS,
  options: CliSpawnOptions = {},
): Promise<CliResult> {
  const cli = spawnCli(args, env, options);
  try {
    const code = await cli.exited(budgetMs);
    return { code, stdout: cli.stdout(), stderr: cli.stderr() };
  } finally {
    cli.kill();
  }
}

/** Environment for a CLI on a test's own database, with a credentials key of its own. */
export function cliDatabaseEnv(testDb: { url: string }): Record<string, string> {
  return { DATABASE_URL: testDb.url, CREDENTIALS_KEY: randomBytes(32).toString('base64'), NODE_ENV: 'test' };
}

/**
 * Environment for a CLI child process on the test app's database, with the app's credentials key
 * (so it opens what the app sealed, and the app what it seals), logging at info (tests wait for its
 * log lines); `extra` adds to it or overrides it.
 */
export function cliEnv(t: TestApp, extra: Record<string, string> = {}): Record<string, string> {
  return { ...cliDatabaseEnv(t.testDb), CREDENTIALS_KEY: t.credentialsKey, LOG_LEVEL: 'info', ...extra };
}
