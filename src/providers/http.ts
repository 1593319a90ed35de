/**
 * One HTTP call to an upstream, with a timeout, never throwing for what the network or the upstream
 * did: the adapters classify what comes back (docs/live-delivery.md, "One delivery, many attempts"). Uses Node's fetch (undici).
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

export type UpstreamReply =
  | {
      reached: true;
      status: number;
      /** The body parsed as JSON, or null when it was empty or not JSON (then `text` has it). */
      body: unknown;
      text: string;
      headers: Headers;
    }
  | {
      /** No answer: a timeout, a refused or reset connection, a body cut short. The upstream may have acted. */
      reached: false;
      message: string;
    };

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
  try {
    const response = await fetch(call.url, {
      method: call.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(call.timeoutMs),
      redirect: 'error',
    });
    const text = await response.text();
    return { reached: true, status: response.status, body: parseJson(text), text, headers: response.headers };
  } catch (error) {
    return { reached: false, message: describeFailure(error, call.timeoutMs) };
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
    const cause = (error as { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' && 'code' in cause ? String(cause.code) : null;
    return code ? `connection failed (${code})` : `connection failed (${error.message})`;
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
