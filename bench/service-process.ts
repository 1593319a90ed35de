// What the bench's drivers (run.ts, drain.ts, instructions.ts) share about the service process they
// start: a free port, its environment, and the CPU it has used.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The service's environment for a bench run on `databaseUrl` (a fresh credentials key each time). */
export function benchServiceEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    SANDBOX_SETTLE_MS: '20',
    NODE_ENV: 'production',
    // Since issue 25 production refuses live packages without a usable route unless the sandbox may
    // stand in for them: the bench's live orders go to the sandbox (an older build ignores this).
    LIVE_SANDBOX: 'true',
    // The bench measures the service at saturation: the per-key rate limit and the failed-auth
    // block would turn its load into 429s (0 turns each off).
    RATE_LIMIT_MAX: '0',
    RATE_LIMIT_AUTH_FAILURES: '0',
  };
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim() || 100);

/**
 * The node options production starts the service with: those of package.json's `start` script,
 * `node <options> dist/cli/index.js serve` (docs/deployment.md, "The young generation"). The
 * benches start every build with this checkout's, so an A/B run compares code, not options.
 */
export const SERVICE_NODE_OPTIONS: readonly string[] = startScriptOptions();

function startScriptOptions(): string[] {
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts?: Record<string, string> };
  const start = manifest.scripts?.start ?? '';
  const words = start.split(/\s+/).filter((word) => word !== '');
  const script = words.indexOf('dist/cli/index.js');
  if (words[0] !== 'node' || script < 0) throw new Error(`package.json's start script is not "node <options> dist/cli/index.js serve": ${start}`);
  return words.slice(1, script);
}

/** User and system CPU seconds (every thread) a live process has used, from /proc/<pid>/stat; null when unreadable. */
export function cpuTimes(pid: number | undefined): { user: number; system: number } | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system, every thread) a live process has used; 0 when unreadable. */
export function cpuSeconds(pid: number | undefined): number {
  const times = cpuTimes(pid);
  return times ? times.user + times.system : 0;
}
