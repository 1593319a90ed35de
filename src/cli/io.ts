import type { DestinationStream } from 'pino';

type Write = (text: string) => void;

/**
 * What a CLI command reads and writes besides the database: its environment, its two output
 * streams, its logger's destination and the exit code it ends with. The process entry
 * (./index.ts) gives the process's own; tests run commands inside their own process with one that
 * collects the output (test/support/cli.ts), so a command reads no global but this.
 */
export class CliIo {
  /** The code the command exits with when it ends without an error (a report that found problems sets 1 or 2). */
  exitCode = 0;

  constructor(
    /** The environment the configuration is read from. */
    readonly env: NodeJS.ProcessEnv,
    private readonly stdout: Write,
    private readonly stderr: Write,
    /** Where the command's logger writes its JSON lines (pino's own standard output when absent). */
    readonly logDestination?: DestinationStream,
    /** Standard input, read to its end (a password given with --password-stdin); absent: empty. */
    private readonly stdin: () => Promise<string> = () => Promise.resolve(''),
  ) {}

  /** The process's own environment and streams. */
  static ofProcess(): CliIo {
    return new CliIo(
      process.env,
      (text) => void process.stdout.write(text),
      (text) => void process.stderr.write(text),
      undefined,
      () => readToEnd(process.stdin),
    );
  }

  /** Standard input, read to its end (only when a command asks for it: --password-stdin). */
  readStdin(): Promise<string> {
    return this.stdin();
  }

  /** One line to standard output. */
  out(line: string): void {
    this.stdout(`${line}\n`);
  }

  /** One line to standard error. */
  err(line: string): void {
    this.stderr(`${line}\n`);
  }

  /** Text to standard output as it is (a CSV document). */
  write(text: string): void {
    this.stdout(text);
  }

  /** Text to standard error as it is (commander's help and errors). */
  writeErr(text: string): void {
    this.stderr(text);
  }

  /** `value` as JSON for scripts (one document, then a newline). */
  json(value: unknown): void {
    this.out(JSON.stringify(value, null, 2));
  }
}

async function readToEnd(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
