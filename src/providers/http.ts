import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

/**
 * One HTTP call to an upstream, with a timeout, never throwing for what the network or the upstream
 * did: the adapters classify what comes back (docs/live-delivery.md, "One delivery, many attempts").
 * Uses node:http(s) with keep-alive connections: Node's fetch (undici) cost ~600 µs of CPU a call
 * against ~175 µs (measured with 500 calls in flight), and a delivery through an upstream makes two
 * or more calls on the worker's one thread. No redirect is followed (a 3xx is no answer), as
 * before with fetch's `redirect: 'error'`; a compressed body is decoded.
 */

export interface UpstreamCall {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Form-encoded body (token endpoints that want it). */
  form?: Record<string, string>;
  timeoutMs: number;
}

/** The reply's headers, read by name (any case). */
export interface ReplyHeaders {
  get(name: string): string | null;
}

export type UpstreamReply =
  | {
      reached: true;
      status: number;
      /** The body parsed as JSON, or null when it was empty or not JSON (then `text` has it). */
      body: unknown;
      text: string;
      headers: ReplyHeaders;
    }
  | {
      /** No answer: a timeout, a refused or reset connection, a body cut short. The upstream may have acted. */
      reached: false;
      message: string;
    };

/**
 * Connections are kept open between calls, as many per upstream as its calls in flight
 * (PROVIDER_CONCURRENCY caps those). One idle for 4 s is closed (undici's default), before a
 * server's own idle timeout (often 5 s) can close it under a call just sent on it. Every idle one is
 * kept until then: with Node's default of 256 idle sockets per host, a worker with 900 calls in
 * flight closed each socket past the 256th as its answer came and opened a new one for the next
 * call (connect and close were 2% of the service's CPU in bench/run.ts's buy-single-upstream).
 */
const AGENT_OPTIONS = { keepAlive: true, timeout: 4_000, maxFreeSockets: Infinity };
const AGENTS: Record<string, http.Agent> = {
  'http:': new http.Agent(AGENT_OPTIONS),
  'https:': new https.Agent(AGENT_OPTIONS),
};

/** The largest answer read (a page of 100 transactions is well under 1 MB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export async function callUpstream(call: UpstreamCall): Promise<UpstreamReply> {
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  let body: string | undefined;
  if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.json);
  } else if (call.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(call.form).toString();
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  let url: URL;
  try {
    url = new URL(call.url);
  } catch {
    return { reached: false, message: 'connection failed (not a URL)' };
  }
  const agent = AGENTS[url.protocol];
  if (!agent) return { reached: false, message: `connection failed (unsupported protocol ${url.protocol})` };
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise<UpstreamReply>((resolve) => {
    let done = false;
    const finish = (reply: UpstreamReply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(reply);
    };
    const failed = (error: unknown) => finish({ reached: false, message: describeFailure(error) });
    const request = transport.request(url, { method: call.method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          // No upstream answer of ours is this large: stop reading rather than hold it in memory.
          finish({ reached: false, message: `the answer was larger than ${MAX_ANSWER_BYTES} bytes` });
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', failed);
      response.on('close', () => {
        if (!response.complete) failed(new Error('the answer was cut short'));
      });
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          finish({ reached: false, message: `connection failed (redirected with HTTP ${status}; not followed)` });
          return;
        }
        let text: string;
        try {
          text = decoded(Buffer.concat(chunks), response.headers['content-encoding']).toString('utf8');
        } catch (error) {
          failed(error);
          return;
        }
        finish({ reached: true, status, body: parseJson(text), text, headers: replyHeaders(response.headers) });
      });
    });
    const timer = setTimeout(() => {
      finish({ reached: false, message: `no answer within ${call.timeoutMs} ms` });
      request.destroy();
    }, call.timeoutMs);
    request.on('error', failed);
    request.end(body);
  });
}

/** The body as sent, decompressed when the upstream compressed it (fetch did this on its own). */
function decoded(raw: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(raw);
    case 'deflate':
      return zlib.inflateSync(raw);
    case 'br':
      return zlib.brotliDecompressSync(raw);
    default:
      return raw;
  }
}

function replyHeaders(headers: http.IncomingHttpHeaders): ReplyHeaders {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `connection failed (${code})` : `connection failed (${error.message})`;
  }
  return 'connection failed';
}

/** A field of a JSON object, when the value is an object; tolerant readers for upstream bodies. */
export function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

export function stringField(value: unknown, key: string): string | null {
  const v = field(value, key);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

export function numberField(value: unknown, key: string): number | null {
  const v = field(value, key);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** GHS as an upstream writes it (10, 10.5, "10.50") → pesewas, rounded to the nearest pesewa. */
export function ghsToPesewas(ghs: number): number {
  return Math.round(ghs * 100);
}

/** Pesewas → the GHS number an upstream expects (two decimals at most). */
export function pesewasToGhs(pesewas: number): number {
  return pesewas / 100;
}
