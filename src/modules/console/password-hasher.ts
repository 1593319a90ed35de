import { Worker } from 'node:worker_threads';

/**
 * scrypt on a thread of its own, one hash at a time, with a bounded queue. node:crypto's async
 * scrypt runs on libuv's thread pool (4 threads), which SQLite's WAL fsync needs too
 * (src/db/wal-sync.ts): a burst of sign-ins once filled it and every purchase waited behind the
 * hashes. Here a hash never takes a pool thread, at most one core hashes, and a burst beyond the
 * queue is refused at once instead of piling up.
 */

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** The queue is full: refuse the sign-in now (the caller answers "busy, try again"). */
export class HasherBusy extends Error {}

/** The hashing thread's nice value: below the request thread's 0, not so low that a busy host starves it. */
const HASHING_NICE = 10;

// A CommonJS script evaluated in the worker (no file to resolve, under tsx or from dist/ alike).
// On Linux a nice value is per thread, and os.setPriority() with no pid sets the calling thread's:
// the hashing thread yields the CPU to the thread that serves requests whenever both want it.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
try { require('node:os').setPriority(${HASHING_NICE}); } catch {}
parentPort.on('message', (m) => {
  try {
    const key = scryptSync(m.password, Buffer.from(m.salt), m.keyLength, { N: m.N, r: m.r, p: m.p, maxmem: m.maxmem });
    parentPort.postMessage({ id: m.id, key });
  } catch (error) {
    parentPort.postMessage({ id: m.id, error: String((error && error.message) || error) });
  }
});
`;

interface Job {
  id: number;
  password: string;
  salt: Buffer;
  keyLength: number;
  cost: ScryptCost;
  resolve(key: Buffer): void;
  reject(error: Error): void;
}

type Answer = { id: number; key: Uint8Array } | { id: number; error: string };

export class PasswordHasher {
  private worker: Worker | null = null;
  private readonly waiting: Job[] = [];
  private running: Job | null = null;
  private nextId = 1;

  /** `maxWaiting`: hashes that may wait behind the running one before the next is refused. */
  constructor(private readonly maxWaiting = 8) {}

  /** Hashes waiting or running now (metrics, tests). */
  get inFlight(): number {
    return this.waiting.length + (this.running ? 1 : 0);
  }

  derive(password: string, salt: Buffer, keyLength: number, cost: ScryptCost): Promise<Buffer> {
    if (this.running && this.waiting.length >= this.maxWaiting) return Promise.reject(new HasherBusy('too many sign-ins at once'));
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, password, salt, keyLength, cost, resolve, reject });
      this.next();
    });
  }

  /** Ends the thread (the process can exit without it anyway: it is unref'd while idle). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private next(): void {
    if (this.running) return;
    const job = this.waiting.shift();
    if (!job) {
      this.worker?.unref();
      return;
    }
    this.running = job;
    const worker = this.thread();
    worker.ref();
    const { N, r, p } = job.cost;
    worker.postMessage({
      id: job.id,
      password: job.password,
      salt: job.salt,
      keyLength: job.keyLength,
      N,
      r,
      p,
      maxmem: 256 * N * r + 16 * 1024 * 1024,
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', (answer: Answer) => this.answered(answer));
    worker.on('error', (error) => this.failed(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      this.failed(new Error('the password hashing thread ended'));
    });
    this.worker = worker;
    return worker;
  }

  private answered(answer: Answer): void {
    const job = this.running;
    if (!job || job.id !== answer.id) return;
    this.running = null;
    if ('error' in answer) job.reject(new Error(answer.error));
    else job.resolve(Buffer.from(answer.key));
    this.next();
  }

  private failed(error: Error): void {
    const job = this.running;
    this.running = null;
    job?.reject(error);
    this.next();
  }
}
