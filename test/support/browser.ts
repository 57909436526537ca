/**
 * What the browser suites share: Debian's Chromium driven by playwright-core (skipped without it
 * and where CI says BROWSER_TESTS=0), the dashboard built into a temporary folder, a page set up
 * as every dashboard suite wants it and the sign-in, a plain map tile so no third party is asked,
 * axe-core's serious and critical findings, and screenshots kept under artifacts/ (CI keeps them).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildApp } from '../../scripts/build-app.mjs';
import { PROJECT_ROOT } from '../../src/platform/reference-data.js';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => fs.existsSync(file));
/** Whether the browser suites run here. */
export const BROWSER_TESTS = Boolean(CHROMIUM) && process.env.BROWSER_TESTS !== '0';
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1100, height: 900 };
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The dashboard built into a new temporary folder (for APP_DIR; the suite removes it after). */
export async function builtApp(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-build-'));
  await buildApp(dir);
  return dir;
}

/**
 * A page in a new context at desktop size (`options` add to it: the locale, downloads), its
 * Content Security Policy violations collected as they come, and a step that does not happen
 * failing by its own locator after 20 s, well before the test's time is up.
 */
export async function dashboardPage(
  browser: Browser,
  options: BrowserContextOptions,
): Promise<{ context: BrowserContext; page: Page; cspViolations: string[] }> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const page = await context.newPage();
  const cspViolations = cspViolationsOf(page);
  page.setDefaultTimeout(20_000);
  return { context, page, cspViolations };
}

/** Signs in on the dashboard's sign-in page (in Russian or English) and waits for the signed-in layout. */
export async function signInAs(page: Page, origin: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${origin}/app/`);
  await page.getByLabel(/E-mail|Эл. почта/).fill(who.email);
  await page.getByLabel(/^(Password|Пароль)/).fill(who.password);
  await page.getByRole('button', { name: /Sign in|Войти/ }).click();
  await page.getByTestId('sign-out').waitFor();
}

/** A plain light tile, so a map test asks nothing of any third party (or, noisy, a photo-sized picture). */
export function tilePng(size = 256, noisy = false): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  // noisy: random pixels do not compress, so the file is as large as a phone's photo
  const rowOf = () => Buffer.concat([Buffer.from([0]), noisy ? randomBytes(size * 3) : Buffer.alloc(size * 3, 0xe8)]);
  const pixels = Buffer.concat(Array.from({ length: size }, rowOf));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** axe-core's serious and critical findings on the page (or inside `include`), as "rule: target" lines. */
export async function accessibilityFindings(page: Page, include?: string): Promise<string[]> {
  // evaluated by the driver, not a <script> tag: a page with a strict CSP refuses inline scripts
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(fs.readFileSync(AXE_SCRIPT, 'utf8'));
  return page.evaluate(async (selector) => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            context: unknown,
            options: unknown,
          ): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const whole = (globalThis as unknown as { document: unknown }).document;
    const result = await axe.run(selector ? { include: [[selector]] } : whole, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${JSON.stringify(node.target)}`));
  }, include ?? null);
}

/** Screenshots under artifacts/<suite>/ (CI keeps the folder). */
export function screenshots(suite: string): { dir: string; shot(page: Page, name: string): Promise<void> } {
  const dir = path.join(PROJECT_ROOT, 'artifacts', suite);
  return {
    dir,
    async shot(page, name) {
      fs.mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
    },
  };
}

/** Waits until every running animation of the page has finished (a sliding navigation, a dialog opening). */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { getAnimations(): Array<{ finished: Promise<unknown> }> } })
      .document;
    // a cancelled animation (the page changed under it) rejects `finished` with an AbortError: it is over too
    return Promise.all(doc.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** The Content Security Policy violations the page reports in its console, as they come. */
export function cspViolationsOf(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/**
 * What every page of the dashboard suites is held to: no serious or critical axe-core finding,
 * then its screenshots at desktop and phone sizes (the viewport restored after).
 */
export async function checkPage(
  page: Page,
  shot: (page: Page, name: string) => Promise<void>,
  name: string,
): Promise<void> {
  await page.waitForLoadState('networkidle');
  // a popover or dialog closing fades out: checked mid-fade, its text fails colour contrast.
  // Two frames let a transition that a key press has just asked for start, then it is waited for.
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const frame = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number })
          .requestAnimationFrame;
        frame(() => frame(() => done()));
      }),
  );
  await animationsSettled(page);
  expect(await accessibilityFindings(page), name).toEqual([]);
  await shot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  // the navigation slides away when the page narrows: the shot waits for it to be gone
  await animationsSettled(page);
  await shot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
  await animationsSettled(page);
}
