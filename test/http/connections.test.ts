import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { redactApiKeys } from '../../src/logging.js';
import { appWithLogLines, createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { ROOT } from '../support/repo.js';
import { waitFor } from '../support/wait.js';

const CLIENT = path.join(ROOT, 'test/support/upload-client.mjs');
const run = promisify(execFile);

/** Runs the upload client in its own process; a budget for a busy machine, not an expected time. */
async function client(...args: string[]) {
  const { stdout } = await run(process.execPath, [CLIENT, ...args], { timeout: 120_000, maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** A raw socket that sends `text` and reports what came back and when the server closed it. */
function rawExchange(port: number, text: string): Promise<{ response: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let response = '';
    socket.on('data', (data) => (response += data.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ response, closedAfterMs: Date.now() - started }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for 60 s; received: ${response}`));
    }, 60_000).unref();
  });
}

const statusOf = (response: string) => Number(response.split(' ')[1]);
const envelopeOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { success: boolean; error: { code: string } };

describe('connections: early answers, timeouts, keys kept out of logs', () => {
  let t: TestApp;
  let port: number;
  /** bytesRead of each server-side socket when it closed. */
  const readBySocket: number[] = [];

  before(async () => {
    t = await createTestApp({
      env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    t.app.server.on('connection', (socket: net.Socket) => socket.on('close', () => readBySocket.push(socket.bytesRead)));
  });
  after(() => t.close());

  test('a body over the limit is answered 413 PAYLOAD_TOO_LARGE that the client reads, never a reset (10 MB and 2 MB, Node fetch)', async () => {
    for (const bytes of [10_000_000, 2_000_000]) {
      const { outcomes } = await client('fetch', `http://127.0.0.1:${port}/api/v1/data-bundles/buy-single`, String(bytes), '20', KEYS.agentLive);
      assert.deepEqual(outcomes, { '413 PAYLOAD_TOO_LARGE': 20 }, `${bytes} bytes`);
    }
  });

  test('a 100 MB body without a key: 401 at once, then the server stops reading and closes the connection', async () => {
    readBySocket.length = 0;
    const result = await client('raw', String(port), 'POST', '/api/v1/data-bundles/buy-single', String(100_000_000));
    assert.equal(result.status, 401, JSON.stringify(result));
    assert.equal(JSON.parse(String(result.body)).error.code, 'UNAUTHORIZED');
    assert.match(String(result.head), /connection: close/i);
    await waitFor('the server to read from the socket', async () => readBySocket.length > 0);
    const read = readBySocket[0] ?? Infinity;
    assert.ok(read < 40_000_000, `the server read ${read} bytes of a 100 MB body it had already refused`);
  });

  test('a 100 MB body on a GET: answered, then the connection is closed instead of the body being read to the end', async () => {
    readBySocket.length = 0;
    const result = await client('raw', String(port), 'GET', '/api/v1/profile', String(100_000_000), KEYS.agentLive);
    assert.equal(result.status, 200, JSON.stringify(result).slice(0, 500));
    assert.match(String(result.head), /connection: close/i);
    await waitFor('the server to read from the socket', async () => readBySocket.length > 0);
    const read = readBySocket[0] ?? Infinity;
    assert.ok(read < 40_000_000, `the server read ${read} bytes of the body of a GET`);
  });

  test('a body that never finishes (valid key) is cut off after HTTP_REQUEST_TIMEOUT_MS with 408 in the envelope', async () => {
    const { response, closedAfterMs } = await rawExchange(
      port,
      `POST /api/v1/data-bundles/buy-single HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${KEYS.agentLive}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"packageId":`,
    );
    assert.equal(statusOf(response), 408, response);
    assert.deepEqual(envelopeOf(response), { success: false, error: { code: 'INVALID_REQUEST', message: 'The request was not received in time' } });
    assert.ok(closedAfterMs >= 1000, `closed after ${closedAfterMs} ms`);
  });

  test('headers that never finish are cut off after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const { response, closedAfterMs } = await rawExchange(port, `GET /api/v1/profile HTTP/1.1\r\nHost: x\r\nX-API-K`);
    assert.equal(statusOf(response), 408, response);
    assert.equal(envelopeOf(response).error.code, 'INVALID_REQUEST');
    assert.ok(closedAfterMs >= 900, `closed after ${closedAfterMs} ms`);
  });

  test('an idle keep-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { response, closedAfterMs } = await rawExchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.equal(statusOf(response), 200, response);
    assert.doesNotMatch(response, /connection: close/i);
    assert.ok(closedAfterMs >= 900, `closed after ${closedAfterMs} ms`);
  });

  test('a request line that does not parse is 400 in the envelope', async () => {
    const { response } = await rawExchange(port, `GET /api/v1/profile HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n`);
    assert.equal(statusOf(response), 400, response);
    assert.equal(envelopeOf(response).error.code, 'INVALID_REQUEST');
  });

  test('an API key anywhere in a log line (here: in the URL) is redacted', async () => {
    const { app, lines } = await appWithLogLines(t);
    try {
      const res = await app.inject({ method: 'GET', url: `/api/v1/profile?api_key=${KEYS.agentLive}`, headers: { 'x-api-key': KEYS.agentLive } });
      assert.equal(res.statusCode, 200);
      const unknown = await app.inject({ method: 'GET', url: '/api/v1/profile?key=service_test_someoneElsesKey99' });
      assert.equal(unknown.statusCode, 401);
    } finally {
      await app.close();
    }
    const log = lines.join('');
    assert.match(log, /api_key=service_live_\[REDACTED\]/);
    assert.doesNotMatch(log, /agentLiveKey0000001|someoneElsesKey99/);
    assert.equal(redactApiKeys('x service_test_abc-DEF_123 y'), 'x service_test_[REDACTED] y');
  });

  test('the path secret of a provider callback is redacted from its request lines, right or wrong', async () => {
    const { app, lines } = await appWithLogLines(t);
    try {
      for (const url of ['/callbacks/hubtel/hubtelPathSecret42?x=1', '/callbacks/dtone/dtonePathSecret43']) {
        const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{}' });
        assert.equal(res.statusCode, 404, url);
      }
    } finally {
      await app.close();
    }
    const log = lines.join('');
    assert.match(log, /"url":"\/callbacks\/hubtel\/\[REDACTED\]\?x=1"/);
    assert.match(log, /"url":"\/callbacks\/dtone\/\[REDACTED\]"/);
    assert.doesNotMatch(log, /PathSecret4/);
  });
});
