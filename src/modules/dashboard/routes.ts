/**
 * The merchant dashboard (app/, built by Vite into dist/app) at /app/ on the API's origin:
 * hashed assets under /app/assets/ by @fastify/static, cached for a year (a new build has new
 * names), as Brotli or gzip to a browser that takes it (the `.br` and `.gz` files the build
 * writes beside each script and style, scripts/precompress.mjs: nothing is compressed per
 * request; `Vary: Accept-Encoding`, and each form its own ETag); every other path under /app/ is the single page (index.html, never cached), so a
 * reload of /app/orders/42 works. The page gets a strict Content-Security-Policy: scripts and
 * styles only from this origin, plus the per-response nonce Mantine puts on the one <style> it
 * writes (its CSS variables), images from here and the configured map tiles, calls only here.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';

/** What the page learns from the server at load (a meta tag: no inline script is allowed). */
export interface DashboardPageConfig {
  mapTiles: string | null;
  mapAttribution: string;
  /** Whether the sign-up page is offered (SIGNUP): `open` shows its link on the sign-in page. */
  signup: Config['signup'];
}

const NONCE_PLACEHOLDER = '__CSP_NONCE__';
const CONFIG_PLACEHOLDER = '__APP_CONFIG__';

export function contentSecurityPolicy(nonce: string, tiles: string | null): string {
  const tileOrigin = tiles ? ` ${new URL(tiles.replaceAll('{', '%7B').replaceAll('}', '%7D')).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data: blob:${tileOrigin}`,
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function escapeAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export async function dashboardRoutes(
  app: App,
  config: Pick<Config, 'appDir' | 'appMapTiles' | 'appMapAttribution' | 'signup'>,
): Promise<void> {
  const indexFile = path.join(config.appDir, 'index.html');
  // read once: the files change only with a new build, which means a new start
  const page = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : null;
  const pageConfig: DashboardPageConfig = {
    mapTiles: config.appMapTiles,
    mapAttribution: config.appMapAttribution,
    signup: config.signup,
  };
  const configAttribute = escapeAttribute(JSON.stringify(pageConfig));

  const sendPage = (reply: FastifyReply) => {
    if (page === null) throw new AppError(404, 'app_not_built', 'The dashboard is not built here: run npm run build.');
    const nonce = randomBytes(16).toString('base64');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', contentSecurityPolicy(nonce, config.appMapTiles))
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(page.replaceAll(NONCE_PLACEHOLDER, nonce).replaceAll(CONFIG_PLACEHOLDER, configAttribute));
  };

  const hidden = { schema: { hide: true }, config: { public: true } } as const;
  // /app and /app/ alike (the router ignores a trailing slash)
  app.get('/app/', hidden, async (_request, reply) => sendPage(reply));

  const assets = path.join(config.appDir, 'assets');
  if (fs.existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/app/assets/',
      decorateReply: false,
      index: false,
      // the files are known at start (a new build means a new start): one route each, and the
      // SPA route below answers every other path
      wildcard: false,
      immutable: true,
      maxAge: '365d',
      // x.js asked for: x.js.br or x.js.gz by Accept-Encoding (q-values honoured), else x.js
      preCompressed: true,
      // the compressed forms are not files of their own to ask for
      globIgnore: ['**/*.br', '**/*.gz'],
      schemaHide: true,
      setHeaders: (reply) => void reply.header('x-content-type-options', 'nosniff'),
    });
  }
  app.get('/app/*', hidden, async (request, reply) => {
    // a missing asset is a 404, not the page (a stale tab asking for an old build's file)
    if (request.url.startsWith('/app/assets/'))
      throw new AppError(404, 'route_not_found', `There is no ${request.url.split('?')[0]}.`);
    // SIGNUP=off: the sign-up page does not answer, as its endpoints do not
    if (config.signup === 'off' && /^\/app\/signup\/?(\?|$)/.test(request.url))
      throw new AppError(404, 'signup_closed', 'Sign-up is off on this instance: its operator makes the accounts.');
    return sendPage(reply);
  });
}
