/* global fetch */
// A client in its own process (so its reads and writes do not share the server's event loop), for
// the tests of early answers. Prints one JSON line.
//   fetch <url> <bytes> <tries> [key]  → { outcomes: { "<status> <code>" | "ERR <code>": count } }
//   raw <port> <method> <path> <bytes> [key] → { status, body, sent, closedAfterMs, error }
import { Buffer } from 'node:buffer';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

const [mode, ...args] = process.argv.slice(2);

async function fetchMode(url, bytes, tries, key) {
  const body = `{"x":"${'a'.repeat(Number(bytes))}"}`;
  const outcomes = {};
  for (let i = 0; i < Number(tries); i++) {
    let outcome;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
        body,
      });
      const text = await res.text();
      let code = '?';
      try {
        code = JSON.parse(text).error.code;
      } catch {
        code = 'not-an-envelope';
      }
      outcome = `${res.status} ${code}`;
    } catch (error) {
      outcome = `ERR ${error.cause?.code ?? error.message}`;
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  return { outcomes };
}

function rawMode(port, method, path, bytes, key) {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    let total = Number(bytes);
    let sent = 0;
    let response = '';
    let error = null;
    const write = () => {
      while (total > 0 && !socket.destroyed) {
        const piece = total >= chunk.length ? chunk : chunk.subarray(0, total);
        total -= piece.length;
        sent += piece.length;
        if (!socket.write(piece)) return socket.once('drain', write);
      }
    };
    socket.on('connect', () => {
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `${key ? `X-API-KEY: ${key}\r\n` : ''}Content-Length: ${bytes}\r\n\r\n`,
      );
      write();
    });
    socket.on('data', (data) => (response += data.toString('latin1')));
    socket.on('error', (e) => (error = e.code ?? e.message));
    socket.on('close', async () => {
      await delay(0);
      const [head = '', body = ''] = response.split('\r\n\r\n');
      const status = Number(head.split(' ')[1] ?? 0);
      resolve({ status, head, body, sent, closedAfterMs: Date.now() - started, error });
    });
  });
}

const result = mode === 'fetch' ? await fetchMode(...args) : await rawMode(...args);
process.stdout.write(`${JSON.stringify(result)}\n`);
