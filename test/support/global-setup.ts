/**
 * Once per test run, before any test file: a database migrated to the latest and holding the
 * reference data (localities, companies, their points, the fulfilment warehouses), which every
 * test app then starts from instead of making its own (app.ts). Migrating and loading took each
 * app ~1 s on SQLite and ~2.5 s on PostgreSQL; a copy takes a fraction of that. SQLite: a file,
 * copied into each app's database in memory (or as its file). PostgreSQL (DATABASE_URL): a
 * database each app's own is created from (CREATE DATABASE … TEMPLATE). Both go at the run's end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startRuntime } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { TEST_SECRET, usingPostgres, withDatabaseName } from './app.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The SQLite file every test app's database starts as a copy of. */
    sqliteTemplate: string;
    /** PostgreSQL: the database every test app's own is made from; '' without DATABASE_URL. */
    postgresTemplate: string;
  }
}

async function fillTemplate(databaseUrl: string, dataDir: string): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
  const runtime = await startRuntime(config, { secret: TEST_SECRET });
  await runtime.database.close();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-template-'));
  const sqliteTemplate = path.join(dir, 'template.db');
  await fillTemplate(`sqlite:${sqliteTemplate}`, dir);
  project.provide('sqliteTemplate', sqliteTemplate);

  let postgresTemplate = '';
  const serverUrl = process.env.DATABASE_URL ?? '';
  if (usingPostgres) {
    postgresTemplate = `template_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${postgresTemplate}`);
    await admin.end();
    await fillTemplate(withDatabaseName(serverUrl, postgresTemplate), dir);
  }
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (postgresTemplate) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${postgresTemplate} with (force)`);
      await admin.end();
    }
  };
}
