/**
 * The baseline: a bare Fastify hello-world route, nothing else. `/payload?bytes=N` answers
 * a fixed JSON body of about N bytes, to tell what a large response costs on its own.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
// bytes encoded once, as the service sends the pages it remembers
const bodies = new Map<number, Buffer>();
function fixedBody(bytes: number): Buffer {
  let body = bodies.get(bytes);
  if (!body) {
    body = Buffer.from(JSON.stringify([{ filler: 'x'.repeat(Math.max(0, bytes - 20)) }]));
    bodies.set(bytes, body);
  }
  return body;
}
app.get<{ Querystring: { bytes?: string } }>('/payload', async (request, reply) =>
  reply.type('application/json; charset=utf-8').send(fixedBody(Number(request.query.bytes ?? 1000))),
);
// the same answer to a POST with a JSON body (the calculator's request shape), the body parsed and dropped
app.post<{ Querystring: { bytes?: string } }>('/payload', async (request, reply) =>
  reply.type('application/json; charset=utf-8').send(fixedBody(Number(request.query.bytes ?? 1000))),
);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`READY ${JSON.stringify({ url: address })}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
