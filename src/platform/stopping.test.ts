import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { closeWithin } from './stopping.js';

interface Answer {
  status: number;
  connection: string | undefined;
}

/** A server on a real port with a route that answers only when told to. */
async function serverWithHeldRoute(): Promise<{
  t: TestApp;
  port: number;
  release(): void;
  entered: Promise<void>;
  stopBegan: Promise<void>;
}> {
  let release = () => undefined as void;
  let entered = () => undefined as void;
  let stopBegan = () => undefined as void;
  const enteredPromise = new Promise<void>((resolve) => (entered = resolve));
  const stopBeganPromise = new Promise<void>((resolve) => (stopBegan = resolve));
  const t = await createTestApp({
    configure(app) {
      app.get('/v2/test/held', { config: { public: true } }, async () => {
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        return { done: true };
      });
      app.addHook('preClose', (done) => {
        stopBegan();
        done();
      });
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    t,
    port: (t.app.server.address() as AddressInfo).port,
    release: () => release(),
    entered: enteredPromise,
    stopBegan: stopBeganPromise,
  };
}

/** A keep-alive client, as PHP curl handles and pooled agents are: the connection stays open after the answer. */
function get(port: number, agent: http.Agent, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
        );
      })
      .on('error', reject);
  });
}

let opened: TestApp | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

describe('graceful stop', () => {
  it('answers a request in flight with Connection: close and ends without waiting for the keep-alive timeout', async () => {
    const { t, port, release, entered, stopBegan } = await serverWithHeldRoute();
    opened = t;
    const agent = new http.Agent({ keepAlive: true });
    const answer = get(port, agent, '/v2/test/held');
    await entered;
    const closed = t.app.close();
    await stopBegan;
    release();
    expect(await answer).toEqual({ status: 200, connection: 'close' });
    // before: the kept-alive connection held close() for 72 s (the test would time out)
    await closed;
    agent.destroy();
  });

  it('cuts a request that outlives the grace period, and the stop ends', async () => {
    const { t, port, release, entered } = await serverWithHeldRoute();
    opened = t;
    const agent = new http.Agent({ keepAlive: true });
    const answer = get(port, agent, '/v2/test/held').then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    );
    await entered;
    expect(await closeWithin(t.app, 20)).toEqual({ cut: true });
    expect(await answer).toBe('ECONNRESET');
    release();
    agent.destroy();
  });

  it('stops at once when nothing is under way', async () => {
    const { t } = await serverWithHeldRoute();
    opened = t;
    expect(await closeWithin(t.app, 60_000)).toEqual({ cut: false });
  });
});
