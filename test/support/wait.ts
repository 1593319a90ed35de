/**
 * Waiting in tests: on an event or a condition, never on a fixed sleep that assumes how fast the
 * machine is. Budgets are safety nets sized for a loaded 2-core machine running three test files at
 * once (scripts/run-tests.mjs), not the expected durations: a wait ends as soon as its condition
 * holds, so a generous budget costs nothing on a green run.
 */

/** A child process to start, finish or exit (each start loads the CLI and connects to the database). */
export const PROCESS_BUDGET_MS = 120_000;

/** A condition inside the test process to hold (a row's state, a worker's step). */
export const CONDITION_BUDGET_MS = 60_000;

/**
 * Polls `probe` until it returns a value other than undefined/false, and returns that value. Fails
 * naming `what` once `budgetMs` has passed without it.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, budgetMs = CONDITION_BUDGET_MS): Promise<T> {
  const started = Date.now();
  let pause = 5;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > budgetMs) throw new Error(`timed out after ${budgetMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 50);
  }
}
