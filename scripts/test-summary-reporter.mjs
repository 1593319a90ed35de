// A node:test reporter for scripts/run-tests.mjs, beside the spec reporter on the console: one JSON
// line per test that did not pass (failed, cancelled, a hook that failed, a test file whose process
// ended before its tests did; a todo test that fails is no failure), each test file's wall time, and the run's counts at the end. The runner prints its summary from it.

const COUNTS = new Set(['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms']);

/** The first line of what went wrong, bounded. */
function reasonOf(error) {
  if (!error) return '';
  const cause = error.cause;
  const text =
    cause && typeof cause === 'object' && typeof cause.message === 'string'
      ? `${cause.name && cause.name !== 'Error' ? `${cause.name}: ` : ''}${cause.message}`
      : String(cause ?? error.message ?? error);
  const prefix = error.failureType === 'hookFailed' ? `${error.message}: ` : '';
  const line = (prefix + text).split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

export default async function* summaryReporter(source) {
  // Per file, the name of the test last started at each nesting level: the path of a test that fails.
  const started = new Map();
  const counts = {};
  for await (const event of source) {
    const data = event.data ?? {};
    // A test file (its process) ended: how long it took, for the runner's list of the slowest files.
    // (node:test reports a file's end as a test:complete named after the file, with its duration.)
    if (event.type === 'test:complete' && data.nesting === 0 && data.file && data.name === data.file) {
      yield `${JSON.stringify({ event: 'file', file: data.file, ms: data.details?.duration_ms ?? null })}\n`;
    }
    if (event.type === 'test:start') {
      const names = started.get(data.file) ?? [];
      names.length = data.nesting;
      names.push(data.name);
      started.set(data.file, names);
    } else if (event.type === 'test:fail') {
      // A todo test may fail: node:test counts it as todo, not as a failure, and so does the summary.
      if (data.todo !== undefined && data.todo !== false) continue;
      const error = data.details?.error;
      const names = (started.get(data.file) ?? []).slice(0, data.nesting);
      yield `${JSON.stringify({
        event: 'fail',
        file: data.file ?? null,
        path: [...names, data.name],
        nesting: data.nesting,
        failureType: error?.failureType ?? null,
        reason: reasonOf(error),
        // Set on the test that stands for a whole file when its process ended badly.
        exitCode: error?.exitCode ?? null,
        signal: error?.signal ?? null,
      })}\n`;
    } else if (event.type === 'test:diagnostic' && data.nesting === 0) {
      const match = /^(\w+) ([\d.]+)$/.exec(data.message ?? '');
      if (match && COUNTS.has(match[1])) counts[match[1]] = Number(match[2]);
    }
  }
  yield `${JSON.stringify({ event: 'counts', ...counts })}\n`;
}
