/**
 * Hand-written, and why. Figure: a stop under keep-alive load ends within the grace period
 * instead of waiting up to 72 s for idle keep-alive connections. Reproduce: `npx tsx bench/stop.ts`.
 * Measured against: Fastify's `app.close()` (which waits for them).
 *
 * A graceful stop that ends. Node's `server.close()` closes the connections idle at that
 * moment; a request in flight was answered `Connection: keep-alive`, so its connection stayed
 * open until the client's next request or the 72 s keep-alive timeout, and `app.close()`
 * waited for it. Answers given once the stop began therefore say `Connection: close` (Node
 * then ends the connection after the answer), and whatever is still open when the grace
 * period ends is cut. The `Connection: close` answers and the 503 for requests arriving
 * meanwhile are part of the HTTP conventions (`installHttpConventions` in http.ts).
 */
import type { FastifyInstance } from 'fastify';

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
