/** A webhook receiver on loopback: keeps what it receives; answers 2xx, fails, hangs or redirects on demand. */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** The status it was answered with (0: held unanswered). */
  answered: number;
}

export type ReceiverMode = 'ok' | 'fail' | 'hang' | 'redirect';

export interface FakeReceiver {
  url: string;
  port: number;
  received: ReceivedCall[];
  mode: ReceiverMode;
  /** Where mode "redirect" sends the caller. */
  redirectTo: string;
  /** Requests held by mode "hang". */
  hanging: number;
  close(): Promise<void>;
}

export async function startReceiver(
  handle?: (call: ReceivedCall, response: http.ServerResponse) => void,
): Promise<FakeReceiver> {
  const receiver: FakeReceiver = {
    url: '',
    port: 0,
    received: [],
    mode: 'ok',
    redirectTo: '',
    hanging: 0,
    close: async () => undefined,
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call: ReceivedCall = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        answered: 0,
      };
      if (receiver.mode === 'hang') {
        receiver.hanging += 1;
        return;
      }
      receiver.received.push(call);
      if (handle) return handle(call, response);
      call.answered = receiver.mode === 'fail' ? 503 : receiver.mode === 'redirect' ? 302 : 200;
      if (receiver.mode === 'fail') {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('receiver is down for maintenance');
        return;
      }
      if (receiver.mode === 'redirect') {
        response.writeHead(302, { location: receiver.redirectTo }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
