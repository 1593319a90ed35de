import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the background thread copies the WAL into the database file. */
const CHECKPOINT_INTERVAL_MS = 250;
/**
 * The writer's own automatic checkpoint, kept as a safety net (pages, 4 KiB each): it runs only if
 * the background thread falls this far behind, and then on the event loop as SQLite does by default.
 */
export const WRITER_AUTOCHECKPOINT_PAGES = 16_000;

// A worker needs a file to run; evaluating this source avoids a separate build artefact (and works
// the same from dist/ and under tsx). better-sqlite3 is resolved from here and handed over.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints SQLite's WAL from a worker thread. With SQLite's default, the COMMIT that takes the
 * WAL past 1000 pages also copies every page into the database file and fsyncs both, on the event
 * loop: ~10 ms, ten times a second under purchase load (measured 2026-11), serving nothing meanwhile. Here a
 * second connection does it on its own thread (a PASSIVE checkpoint never blocks the writer or the
 * readers), and the writer's automatic checkpoint stays as a safety net far above the usual size.
 */
export class BackgroundCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, onError: (message: string) => void) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    this.worker.on('message', (message: { error?: string }) => onError(message.error ?? 'unknown checkpoint error'));
    this.worker.on('error', (error) => onError(error.message));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // A running checkpoint thread alone never keeps the process alive.
    this.worker.unref();
  }

  async close(): Promise<void> {
    // Referenced again so that the process waits for the thread to close its connection.
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }
}
