/**
 * A webhook receiver for the webhook figures, in its own process: POST /hooks answers 200
 * (mode ok), 503 (fail) or never (hang); POST /mode?to=... switches; GET /count answers how
 * many messages it took and how many distinct webhook-ids. Prints `READY {url}`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

let mode = process.env.MODE ?? 'ok';
let taken = 0;
const ids = new Set<string>();
const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://receiver');
  request.resume();
  request.on('end', () => {
    if (url.pathname === '/mode') {
      mode = url.searchParams.get('to') ?? 'ok';
      response.writeHead(204).end();
      return;
    }
    if (url.pathname === '/count') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ taken, unique: ids.size }));
      return;
    }
    if (mode === 'hang') return;
    if (mode === 'fail') {
      response.writeHead(503).end('down');
      return;
    }
    taken += 1;
    ids.add(String(request.headers['webhook-id']));
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
server.keepAliveTimeout = 1000;
server.listen(0, '127.0.0.1', () =>
  console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}`),
);
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
