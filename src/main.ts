/**
 * The one command line of the service:
 *   serve                                   start the HTTP API (default)
 *   migrate                                 apply database migrations and reference data
 *   account create --name N [--email E --password P] [--time-zone Z] [--json]
 *   account token --id N [--json]           issue another account token
 *   reference import                        re-import reference data from data/
 *   carrier secret --id N                   the secret a delivery company pushes statuses with
 *   fulfilment operator-token --warehouse N [--name S]   a token for the staff of a fulfilment warehouse
 *   billing operator-token [--name S]       a token for the service's billing operators (payments of bills)
 *   sandbox close-period|collect-pickup|advance-order --account N [--id N]   the sandbox (modules/sandbox)
 *   mcp [--token T] [--shop-id N]           the MCP server on stdin/stdout (modules/mcp; token also from DELIVERY_API_TOKEN)
 * The areas' commands (account, carrier, fulfilment, billing, sandbox) come from their module
 * definitions (`commands`); serve runs every area's jobs, schedules, upkeep and background work.
 */
import { loadConfig, ConfigError, type Config } from './config.js';
import { buildApp } from './app.js';
import { startRuntime, importReferenceData, loadSecret, type Runtime } from './bootstrap.js';
import os from 'node:os';
import { newAuditContext, outsideAudit, runAudited } from './platform/audit.js';
import { AppError } from './platform/errors.js';
import { purgeExpiredIdempotencyKeys } from './platform/idempotency.js';
import { JobWorker } from './platform/jobs.js';
import { DatabaseFileStore } from './platform/files.js';
import { AREAS, type AreaContext } from './modules.js';
import { CommandUsageError } from './platform/module.js';
import { closeWithin } from './platform/stopping.js';
import { LoadSettler, releaseStartupGarbage } from './platform/heap.js';
import { runOnJemallocWhenPresent } from './platform/allocator.js';
import { underStartLock } from './platform/db/start-lock.js';
import { StartupError, ensureDatabaseAnswers, ensureWritableDataDir, listenProblem } from './startup-checks.js';
import { parseArgs } from 'node:util';
import { stringOption } from './platform/module.js';
import { MCP_TOKEN_VARIABLE, languageOfLocale } from './modules/mcp/command.js';

const FINISHED_JOBS_KEPT_MS = 7 * 86400_000;

const USAGE = [
  'Usage: npm run cli -- <command>',
  '  serve                                      start the HTTP API (what npm start runs)',
  '  migrate                                    apply database migrations and load reference data',
  '  reference import                           re-import the reference data shipped in data/',
  `  mcp [--token T] [--shop-id N]              the MCP server on stdin/stdout for an AI agent (token also from ${MCP_TOKEN_VARIABLE})`,
  // the areas' commands, from their module definitions
  ...AREAS.flatMap((area) =>
    Object.values(area.commands ?? {}).flatMap((areaCommand) => areaCommand.usage.map((line) => `  ${line}`)),
  ),
].join('\n');

const UsageError = CommandUsageError;

async function withRuntime<T>(config: Config, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  ensureWritableDataDir(config.dataDir);
  await ensureDatabaseAnswers(config);
  const runtime = await startRuntime(config);
  try {
    return await work(runtime);
  } finally {
    await runtime.database.close();
  }
}

async function serve(config: Config): Promise<void> {
  // before anything is allocated for the service: the process may replace itself (platform/allocator.ts)
  runOnJemallocWhenPresent();
  ensureWritableDataDir(config.dataDir);
  const { createdFile } = loadSecret(config);
  await ensureDatabaseAnswers(config);
  const runtime = await startRuntime(config);
  const app = await buildApp({ config, database: runtime.database, services: runtime.services });
  const context: AreaContext = { ...runtime.services, config };
  if (createdFile)
    app.log.warn(
      { file: createdFile },
      'Created a new instance secret. Back it up; processes sharing this database must share it (or set SECRET_KEY).',
    );

  if (runtime.services.files instanceof DatabaseFileStore) {
    // files this process kept in DATA_DIR before FILE_STORE became `database`: moved in, so every process serves them
    runtime.services.files
      .adoptLocalFiles()
      .then((adopted) => adopted > 0 && app.log.info({ adopted }, 'moved files from DATA_DIR/files into the database'))
      .catch((error: unknown) =>
        app.log.error({ err: error }, 'moving files from DATA_DIR/files into the database failed'),
      );
  }

  const maintenance = setInterval(
    () => {
      purgeExpiredIdempotencyKeys(runtime.database.db).catch((error: unknown) =>
        app.log.error({ err: error }, 'idempotency key purge failed'),
      );
      runtime.services.files
        .purgeExpired()
        .catch((error: unknown) => app.log.error({ err: error }, 'expired file purge failed'));
      // finished jobs stay a week for whoever looks into a failure; the notification dispatch alone leaves ~17,000 a day
      for (const area of AREAS) {
        for (const [work, run] of Object.entries(area.hourly?.(context) ?? {}))
          run().catch((error: unknown) => app.log.error({ err: error, area: area.area }, `${work} failed`));
      }
      runtime.services.jobs
        .purgeFinished(FINISHED_JOBS_KEPT_MS)
        .catch((error: unknown) => app.log.error({ err: error }, 'finished job purge failed'));
    },
    60 * 60 * 1000,
  );
  maintenance.unref();

  // Background work of this process: every area's jobs and recurring jobs, then its work beside the server.
  const worker = new JobWorker(runtime.services.jobs, app.log);
  for (const area of AREAS) area.jobs?.(worker, context, app.log);
  for (const area of AREAS) await area.schedules?.(context);
  worker.start();
  const background = AREAS.flatMap((area) => area.background?.(context, app.log) ?? []);
  for (const work of background) work.start();

  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    const graceMs = config.shutdownGraceSeconds * 1000;
    app.log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'shutting down: draining requests');
    clearInterval(maintenance);
    // Whatever hangs (a database that does not answer): the process still ends.
    setTimeout(() => {
      app.log.error(
        { graceSeconds: config.shutdownGraceSeconds },
        'shutdown did not finish in the grace period and a little more; exiting',
      );
      process.exit(1);
    }, graceMs + 5000).unref();
    try {
      // requests and jobs drain side by side, within the same grace period
      const [http] = await Promise.all([
        closeWithin(app, graceMs),
        worker.stop(graceMs),
        ...background.map((work) => work.stop(graceMs)),
      ]);
      if (http.cut)
        app.log.warn(
          { graceSeconds: config.shutdownGraceSeconds },
          'requests still under way at the end of the grace period were cut',
        );
      await runtime.database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // before the port opens, so no request waits on it
  const settleMs = releaseStartupGarbage();
  // and again once a load has stopped: the pages V8's heap grew to under it go back
  const settler = new LoadSettler(releaseStartupGarbage, (tookMs) =>
    app.log.info({ tookMs }, 'memory given back after a load'),
  );
  app.addHook('onResponse', (_request, _reply, done) => {
    settler.requestServed();
    done();
  });
  settler.start();
  await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
    throw listenProblem(error, config) ?? error;
  });
  app.log.info({ url: config.publicUrl, database: config.databaseKind, settleMs }, 'delivery service listening');
  // Only once the port is ours: a start that stops on a taken port must not use up the one
  // showing of the first account's token.
  await createFirstAccount(runtime, config);
}

/**
 * The MCP server over stdio: the app is built (not listening) so that every tool call goes
 * through the API in process; stdout carries only protocol messages, so the log goes to stderr.
 * Jobs (a confirmation's registration with the company) are run by the `serve` processes on the
 * same database, as for any other API call.
 */
async function serveMcp(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { token: { type: 'string' }, 'shop-id': { type: 'string' } } });
  const token = stringOption(values, 'token') ?? process.env[MCP_TOKEN_VARIABLE];
  if (!token)
    throw new UsageError(`mcp needs an API token: --token T or the ${MCP_TOKEN_VARIABLE} environment variable`);
  // the SDK only for this command (modules/mcp/command.ts says why)
  const { serveMcpOverStdio } = await import('./modules/mcp/stdio.js');
  await withRuntime(config, async (runtime) => {
    const app = await buildApp({
      config,
      database: runtime.database,
      services: runtime.services,
      logStream: process.stderr,
    });
    try {
      await app.ready();
      await serveMcpOverStdio(app, runtime.services.tokens, {
        token,
        shopId: stringOption(values, 'shop-id'),
        publicUrl: config.publicUrl,
        acceptLanguage: languageOfLocale(process.env.LC_ALL || process.env.LANG),
      });
    } finally {
      await app.close();
    }
  });
}

async function createFirstAccount(runtime: Runtime, config: Config): Promise<void> {
  // processes starting together on an empty database make one account between them
  const created = await underStartLock(runtime.database, async () =>
    (await runtime.services.accounts.hasAnyAccount())
      ? null
      : runtime.services.accounts.createAccount({ name: 'Default account' }),
  );
  if (created) {
    // the owner chooses their e-mail and password in the browser, by a link that works once
    const setup = await runtime.services.access.setupLink(created.accountId);
    process.stdout.write(
      [
        '',
        '================================================================================',
        ` First start: created account ${created.accountId}. Its API token is shown only now:`,
        '',
        `   ${created.token}`,
        '',
        ' Try it:',
        `   curl -H "Authorization: Bearer ${created.token}" ${config.publicUrl}/v2/lists/order-statuses`,
        '',
        " Set up the owner's sign-in to the dashboard (the link works once, for 7 days;",
        ` a fresh one: npm run cli -- account setup-link --id ${created.accountId}):`,
        '',
        `   ${setup.url}`,
        '',
        ` API documentation: ${config.publicUrl}/docs`,
        '================================================================================',
        '',
      ].join('\n'),
    );
  }
}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config);
    case 'migrate':
      await withRuntime(config, async () => undefined);
      process.stdout.write('Database is up to date; reference data loaded.\n');
      return;
    case 'mcp':
      return serveMcp(config, rest);
    case 'reference':
      if (rest[0] !== 'import') throw new UsageError('usage: reference import');
      await withRuntime(config, (runtime) => importReferenceData(runtime.database, runtime.services, { force: true }));
      process.stdout.write('Reference data imported.\n');
      return;
    default: {
      // the areas' own commands (account, carrier, fulfilment, billing, sandbox)
      const areaCommand = AREAS.map((area) => area.commands?.[command]).find((found) => found !== undefined);
      if (!areaCommand) throw new UsageError(`unknown command "${command}"`);
      let runtime: Runtime | null = null;
      const open = async (): Promise<AreaContext> => {
        ensureWritableDataDir(config.dataDir);
        await ensureDatabaseAnswers(config);
        runtime = await startRuntime(config);
        return { ...runtime.services, config };
      };
      try {
        // what an operator's command changes is audited as theirs (platform/audit.ts), in the account it names
        const named = /^--(?:account|id)(?:=(\d+))?$/;
        const at = rest.findIndex((arg) => named.test(arg));
        const accountArg = at < 0 ? null : (named.exec(rest[at] as string)?.[1] ?? rest[at + 1] ?? null);
        const context = newAuditContext({
          accountId: accountArg !== null && /^\d+$/.test(accountArg) ? Number(accountArg) : null,
          actor: { kind: 'operator', id: os.userInfo().username },
          operation: `cli:${[command, ...rest.filter((arg) => !arg.startsWith('-')).slice(0, 1)].join(' ')}`,
          ip: null,
          userAgent: 'cli',
        });
        // opening (migrations, reference data) is no one's change
        const unaudited = () => outsideAudit(open);
        process.stdout.write(await runAudited(context, () => areaCommand.run(rest, unaudited)));
      } finally {
        await (runtime as Runtime | null)?.database.close();
      }
      return;
    }
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (error instanceof AppError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
