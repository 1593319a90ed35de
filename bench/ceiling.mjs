// The ceiling: the smallest useful node:http JSON server, measured exactly like the service.
import { Buffer } from 'node:buffer';
import http from 'node:http';

const body = JSON.stringify({ success: true, data: { status: 'ok', currency: 'GHS', balance: 1234.5 } });
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
