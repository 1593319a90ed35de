import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, isPrivateAddress, NOT_REACHABLE } from './url-policy.js';

/** What one POST to an endpoint came to. */
export interface SendResult {
  /** The answer's status, or null when none came (refused, timed out, not allowed). */
  statusCode: number | null;
  /** Why no answer came. */
  error: string | null;
  durationMs: number;
  /** What the endpoint's Retry-After asked for, in ms (429 and 503 only). */
  retryAfterMs: number | null;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** Resolves like dns.lookup, refusing a name with any private address (DNS may change after the URL was checked). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const first = addresses[0];
      if (first === undefined) return callback(new Error(`${hostname} resolves to no address`), '', 0);
      if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
        return callback(new Error(`not allowed: ${hostname} resolves to ${NOT_REACHABLE}`), '', 0);
      }
      // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

/**
 * POSTs `body` to `url` once: no redirects followed (a 3xx is an answer like any other), the whole
 * exchange bounded by `timeoutMs`, the connection refused when the host is a private address
 * (unless allowed). Never rejects.
 */
export function postWebhook(url: URL, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const host = hostOf(url);
  // A literal address is connected to without a lookup: check it here.
  if (!options.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
    return Promise.resolve({
      statusCode: null,
      error: `not allowed: the url's host is ${NOT_REACHABLE}`,
      durationMs: 0,
      retryAfterMs: null,
    });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    /** The answer's status once its head arrived: what counts, even if its body never ends. */
    let answered: { statusCode: number; retryAfterMs: number | null } | null = null;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
        lookup: guardedLookup(options.allowPrivate),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'partner-api-webhooks/1',
        },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        const retryAfter =
          statusCode === 429 || statusCode === 503 ? retryAfterMs(response.headers['retry-after'], Date.now()) : null;
        answered = { statusCode, retryAfterMs: retryAfter };
        // The answer's body is not read; it is drained so the connection can be used again.
        response.resume();
        response.on('end', () => finish({ statusCode, retryAfterMs: retryAfter, error: null }));
        response.on('error', () => finish({ statusCode, retryAfterMs: retryAfter, error: null }));
      },
    );
    const deadline = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (error) =>
      finish(answered ? { ...answered, error: null } : { statusCode: null, error: describe(error), retryAfterMs: null }),
    );
    request.end(body);
  });
}
