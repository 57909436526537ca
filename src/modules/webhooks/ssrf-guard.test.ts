/**
 * SSRF refusals with WEBHOOK_ALLOW_PRIVATE_TARGETS off (the default): at creation for
 * addresses written in the URL, and at delivery time, after DNS, for names that resolve to
 * one; redirects are never followed.
 */
import dns from 'node:dns/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { orderBody, orderingAccount } from '../../../test/support/orders.js';
import { startReceiver, type FakeReceiver } from '../../../test/support/webhook-receiver.js';
import { WebhookPump } from './pump.js';
import { blockedReason, call, describeCallFailure, embeddedIPv4 } from './ssrf-guard.js';

const quiet = { error: () => undefined, warn: () => undefined };
let t: TestApp;
let owner: ApiClient;
let body: Record<string, unknown>;
let hook: FakeReceiver;
let pump: WebhookPump;

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0' } });
  expect(t.config.webhookAllowPrivateTargets).toBe(false);
  const account = await orderingAccount(t);
  owner = account.owner;
  body = orderBody({ shopId: account.shopId, pointId: account.pointId });
  hook = await startReceiver();
  pump = new WebhookPump(t.runtime.services.webhooks, t.runtime.services.jobs, quiet, { concurrency: 4, pollMs: 20 });
});

afterAll(async () => {
  await hook.close();
  await t.close();
});

/** A name other than "localhost" that this machine resolves to loopback (/etc/hosts). */
async function loopbackName(): Promise<string | null> {
  for (const name of ['vm', 'runsc', os.hostname(), 'localhost.localdomain']) {
    try {
      const { address } = await dns.lookup(name);
      if (address.startsWith('127.') || address === '::1') return name;
    } catch {
      // not known here
    }
  }
  return null;
}

describe('SSRF guard', () => {
  it('classifies addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
    ]) {
      expect(blockedReason(address), address).not.toBeNull();
    }
    for (const address of ['8.8.8.8', '93.184.216.34', '2a00:1450:4010:c05::64'])
      expect(blockedReason(address), address).toBeNull();
  });

  it('classifies IPv6 addresses that carry a private or loopback IPv4 one (the probe), and lets public ones through', () => {
    for (const address of [
      '::127.0.0.1', // IPv4-compatible
      '::7f00:1',
      '::ffff:7f00:1', // IPv4-mapped, as the URL parser writes it
      '::ffff:0:a00:1', // IPv4-translated
      '64:ff9b::127.0.0.1', // NAT64
      '64:ff9b::a9fe:a9fe', // NAT64 to the metadata address
      '64:ff9b:1::c0a8:1', // local-use NAT64
      '2002:7f00:1::', // 6to4
      '2002:a9fe:a9fe::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 inverted
      '2001:db8::1', // documentation
      'fec0::1',
    ]) {
      expect(blockedReason(address), address).not.toBeNull();
    }
    expect(embeddedIPv4('64:ff9b::808:808')).toBe('8.8.8.8');
    expect(embeddedIPv4('2002:808:808::1')).toBe('8.8.8.8');
    for (const address of ['64:ff9b::808:808', '2002:808:808::1', '::ffff:8.8.8.8', '2606:4700::1111'])
      expect(blockedReason(address), address).toBeNull();
  });

  it('refuses the IPv6 forms of loopback and private addresses in a webhook URL at creation', async () => {
    for (const url of [
      'http://[::127.0.0.1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[64:ff9b::127.0.0.1]/x',
      'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
      'http://[2002:7f00:1::]/x',
      'http://[2002:c0a8:1::1]/x',
    ]) {
      const response = await owner.post('/v2/webhooks', { url });
      expect(response.status, url).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ field: 'url', message: expect.stringContaining('is refused') });
    }
    expect((await owner.get('/v2/webhooks')).body).toEqual([]);
  });

  it("says what failed in a delivery's error without the addresses a name resolved to", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 203.0.113.9:443'), { code: 'ECONNREFUSED' });
    expect(describeCallFailure(refused)).toBe('the connection was refused');
    const tls = Object.assign(new Error('Hostname/IP does not match certificate: 203.0.113.9'), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    expect(describeCallFailure(tls)).not.toContain('203.0.113.9');
    expect(describeCallFailure(new Error('getaddrinfo ENOTFOUND x'))).toBe('the call failed');
  });

  it('refuses endpoints on loopback, private, link-local and metadata addresses at creation, and writes nothing', async () => {
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/x',
      'http://localhost:3000/x',
      'http://192.168.0.10/',
      'http://0x7f000001/',
    ]) {
      const response = await owner.post('/v2/webhooks', { url });
      expect(response.status, url).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ field: 'url', message: expect.stringContaining('is refused') });
      const cms = await owner.put(`/v2/shops/${body.shopId}/cms-callbacks`, { platform: 'woocommerce', apiUrl: url });
      expect(cms.status, url).toBe(400);
    }
    expect((await owner.get('/v2/webhooks')).body).toEqual([]);
  });

  it('refuses at delivery a name that resolves to loopback, without a byte reaching it', async () => {
    const name = await loopbackName();
    expect(name, 'this machine has a name resolving to loopback').not.toBeNull();
    const created = await owner.post('/v2/webhooks', { url: `http://${name}:${hook.port}/hooks` });
    expect(created.status).toBe(201);
    await owner.post('/v2/orders', body);
    await pump.drain();
    expect(hook.received).toEqual([]);
    const attempts = (await owner.get(`/v2/webhooks/${created.body.id}/attempts`)).body;
    expect(attempts[0]).toMatchObject({
      httpStatus: null,
      error: expect.stringContaining('loopback, private, link-local or reserved'),
    });
    // the DNS answer is not echoed
    expect(attempts[0].error).not.toMatch(/127\.\d+\.\d+\.\d+|::1/);
    await owner.delete(`/v2/webhooks/${created.body.id}`);
  });

  it('does not follow a redirect to a private address', async () => {
    // the redirecting server is itself on loopback, so it is called with private targets allowed; the target it names is not
    const target = await startReceiver();
    hook.mode = 'redirect';
    hook.redirectTo = 'http://169.254.169.254/latest/meta-data/';
    const answer = await call({
      method: 'POST',
      url: hook.url,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
      allowPrivate: true,
    });
    expect(answer.status).toBe(302);
    hook.redirectTo = target.url;
    expect(
      (await call({ method: 'POST', url: hook.url, headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: true }))
        .status,
    ).toBe(302);
    expect(target.received).toEqual([]);
    hook.mode = 'ok';
    await target.close();
    // with private targets refused, the same loopback call never leaves
    await expect(
      call({ method: 'POST', url: hook.url, headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: false }),
    ).rejects.toThrow(/loopback/);
  });

  it('answers a refused connection and a timeout as failures, not as answers', async () => {
    const closed = await startReceiver();
    const port = closed.port;
    await closed.close();
    await expect(
      call({
        method: 'POST',
        url: `http://127.0.0.1:${port}/`,
        headers: {},
        body: '{}',
        timeoutMs: 2000,
        allowPrivate: true,
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
    const hanging = await startReceiver();
    hanging.mode = 'hang';
    const started = Date.now();
    await expect(
      call({ method: 'POST', url: hanging.url, headers: {}, body: '{}', timeoutMs: 300, allowPrivate: true }),
    ).rejects.toThrow(/no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    await hanging.close();
  });
});
