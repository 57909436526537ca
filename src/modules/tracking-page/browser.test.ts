/**
 * The tracking page in a real browser at a phone's size: headless Chromium against the app
 * listening on a loopback port. Skipped when no Chromium is installed (CI installs it).
 * TRACKING_PAGE_SCREENSHOT=/some/file.png keeps the screenshot to look at.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { orderBody, orderingAccount, preparedOrder } from '../../../test/support/orders.js';

const run = promisify(execFile);

function findChromium(): string | undefined {
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  for (const directory of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of names) {
      const candidate = path.join(directory, name);
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

const chromium = findChromium();
/** An iPhone 12-14 viewport in CSS pixels. */
const PHONE = { width: 390, height: 844 };

describe.skipIf(!chromium)('the tracking page in Chromium at a phone size', () => {
  let t: TestApp;
  let pageUrl: string;
  let profile: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0' } });
    const account = await orderingAccount(t);
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, orderBody(account));
    const push = (statusCode: number, at: string) =>
      t
        .client()
        .post(
          '/v2/tracking/events/1',
          { events: [{ trackNumber, statusCode, at }] },
          { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
        );
    for (const [code, at] of [
      [41, '2026-03-02T09:15:00Z'],
      [411, '2026-03-03T04:00:00Z'],
      [412, '2026-03-04T08:00:00Z'],
      [42, '2026-03-04T18:30:00Z'],
    ] as const) {
      expect((await push(code, at)).body.applied).toBe(1);
    }
    const trackingUrl = (await account.owner.get(`/v2/orders/${id}`)).body.trackingUrl as string;
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    pageUrl = `${address}${new URL(trackingUrl).pathname}`;
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tracking-chromium-'));
  });
  afterAll(async () => {
    await t?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  const browse = (...args: string[]) =>
    run(
      chromium as string,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--hide-scrollbars',
        `--user-data-dir=${profile}`,
        `--window-size=${PHONE.width},${PHONE.height}`,
        ...args,
      ],
      {
        maxBuffer: 16 * 1024 * 1024,
        timeout: 90_000,
      },
    );

  it('renders the statuses, the point and the hold date in the language the phone asks', async () => {
    const { stdout } = await browse('--accept-lang=ru-RU,ru', '--dump-dom', pageUrl);
    expect(stdout).toContain('В пункте выдачи');
    expect(stdout).toContain('Прибыл в город получателя');
    expect(stdout).toContain('Хранится до');
    expect(stdout).toContain('Пункт выдачи');
    const english = await browse('--accept-lang=en-US,en', '--dump-dom', pageUrl);
    expect(english.stdout).toContain('Kept until');
  }, 120_000);

  it('draws a phone-sized screenshot', async () => {
    const file = path.join(profile, 'phone.png');
    await browse('--accept-lang=ru-RU,ru', `--screenshot=${file}`, pageUrl);
    const png = fs.readFileSync(file);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: width and height of the image, the viewport asked for
    expect(png.readUInt32BE(16)).toBe(PHONE.width);
    expect(png.readUInt32BE(20)).toBe(PHONE.height);
    expect(png.length).toBeGreaterThan(10_000);
    if (process.env.TRACKING_PAGE_SCREENSHOT) fs.copyFileSync(file, process.env.TRACKING_PAGE_SCREENSHOT);
  }, 120_000);
});
