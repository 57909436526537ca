/**
 * The OpenAPI document the service serves at /openapi.json, built without a server or a data
 * directory: the app on a throw-away SQLite database in memory. For the Redocly lint and
 * the generated client.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { startRuntime } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';

/** What `npm start` listens on by default: the servers entry of the published document. */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8080';

/**
 * The paths by their path: the order routes register in depends on when each area's plugin
 * finishes loading, which differs between Node lines (a file written on Node 24 was stale on 26).
 */
function inPathOrder(paths: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export async function publishedDocument(publicUrl = DEFAULT_PUBLIC_URL): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-openapi-'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'sqlite::memory:',
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
  });
  const runtime = await startRuntime(config, { secret: 'openapi-document-only-openapi-document-only' });
  try {
    const app = await buildApp({ config, database: runtime.database, services: runtime.services });
    try {
      await app.ready();
      // a copy: the app's own is cached and shared
      const document = JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>;
      return { ...document, paths: inPathOrder(document.paths as Record<string, unknown>) };
    } finally {
      await app.close();
    }
  } finally {
    await runtime.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
