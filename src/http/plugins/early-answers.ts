import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Replies sent before the request's body has arrived: a 401 from the key check (which runs before
 * the body is read), a 413 from the length check, a 405. Node would otherwise read the rest of the
 * body to keep the connection: 100 MB sent without a key would cost a second of bandwidth. Closing
 * at once is no better: a client still sending gets a reset (EPIPE) before it reads our answer.
 * So, like nginx's lingering close, the reply says `Connection: close`, the socket sends it and
 * shuts its write side, then reads and discards what still arrives for a bounded time and number
 * of bytes, so the client can read the answer, and then closes.
 */
export interface LingerLimits {
  ms: number;
  bytes: number;
}

export const DEFAULT_LINGER: LingerLimits = { ms: 2_000, bytes: 16 * 1024 * 1024 };

const lingering = new WeakSet<Socket>();

function lingerBeforeClosing(socket: Socket, limits: LingerLimits): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node's HTTP server calls destroySoon() once a `Connection: close` reply is written; this
  // replaces, for this socket only, its "end then destroy as soon as the write side is done".
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    const stopAt = this.bytesRead + limits.bytes;
    const timer = setTimeout(() => this.destroy(), limits.ms);
    timer.unref();
    this.on('data', () => {
      if (this.bytesRead > stopAt) this.destroy();
    });
    this.once('close', () => clearTimeout(timer));
  };
}

export function closeAfterEarlyAnswers(app: FastifyInstance, limits: LingerLimits = DEFAULT_LINGER): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const socket = request.raw.socket;
    // `complete` is false while the request still has body bytes to arrive.
    if (!request.raw.complete && socket instanceof Socket) {
      reply.header('connection', 'close');
      lingerBeforeClosing(socket, limits);
    }
    done(null, payload);
  });
}
