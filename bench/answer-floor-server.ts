/**
 * The floor under an uncached calculator answer: a bare Fastify server that answers the
 * calculator's request shape (a POST with a JSON body) with one real answer's bytes, compressed
 * afresh for every request by the service's own `sendJsonBody` (Brotli or gzip by the request's
 * Accept-Encoding, as a fresh answer is). No pricing, authentication, validation or logging:
 * only what sending a fresh answer of that size costs. FLOOR_ANSWER: the file of the answer's
 * plain bytes.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import { JsonBody, sendJsonBody } from '../src/platform/compression.js';

const file = process.env.FLOOR_ANSWER;
if (!file) throw new Error('FLOOR_ANSWER: the file of an answer to send');
const answer = fs.readFileSync(file);
const app = Fastify({ logger: false });
app.post('/fresh', (request, reply) => sendJsonBody(request, reply, JsonBody.of(answer)));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`READY ${JSON.stringify({ url: address })}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
