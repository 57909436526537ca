/**
 * A graceful stop that ends. Node's `server.close()` closes the connections idle at that
 * moment; a request in flight was answered `Connection: keep-alive`, so its connection stayed
 * open until the client's next request or the 72 s keep-alive timeout, and `app.close()`
 * waited for it. Answers given once the stop began therefore say `Connection: close` (Node
 * then ends the connection after the answer), and whatever is still open when the grace
 * period ends is cut.
 */
import type { FastifyInstance } from 'fastify';

/** Answers sent after the stop began close their connection. Call before the routes are added. */
export function closeConnectionsWhenStopping(app: FastifyInstance): void {
  let stopping = false;
  app.addHook('preClose', (done) => {
    stopping = true;
    done();
  });
  // Requests arriving after the stop began get Fastify's own 503 with `Connection: close`
  // (return503OnClosing); this covers the ones already past routing.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (stopping && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * Closes the app, waiting at most `graceMs` for requests in flight; then cuts the
 * connections still open. Says whether connections had to be cut.
 */
export async function closeWithin(app: FastifyInstance, graceMs: number): Promise<{ cut: boolean }> {
  let cut = false;
  const timer = setTimeout(() => {
    cut = true;
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
  return { cut };
}
