import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Anything shaped like one of our API keys (`service_live_…`, `service_test_…`), wherever it
 * appears in a log line: a careless client may put its key in a URL (`?api_key=…`), a message may
 * quote a header. The mode stays readable; the secret part never reaches the log.
 */
const API_KEY = /service_(live|test)_[A-Za-z0-9_-]+/g;

/**
 * The path secret of Hubtel's and DT One's callbacks (PROVIDER_CALLBACK_TOKEN): every callback's
 * request line carries it in the URL, right or wrong. The segment after the provider is cut.
 */
const CALLBACK_TOKEN = /\/callbacks\/(hubtel|dtone)\/[^/?#"\s\\]+/g;

export function redactApiKeys(line: string): string {
  return line.replace(API_KEY, 'service_$1_[REDACTED]').replace(CALLBACK_TOKEN, '/callbacks/$1/[REDACTED]');
}

/** The process logger: JSON lines, with API keys and callback tokens redacted from every line it writes. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, hooks: { streamWrite: redactApiKeys } };
  return destination ? pino(options, destination) : pino(options);
}
