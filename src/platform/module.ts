/**
 * The shape of an area (`modules/<area>/module.ts`): everything the app, the CLI and the table
 * type need to know of it, in one definition. The platform knows this shape and no area; the
 * composition root (`src/services.ts`) builds the areas' services, and `src/modules.ts` is the
 * one list the app (`app.ts`), the CLI (`main.ts`) and the table type (`src/tables.ts`) iterate.
 *
 * `TUses` is what the area's routes, jobs and schedules are given: only the services they use
 * (the composition root passes its whole bag, the type lets them reach no other).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { TSchema } from 'typebox';
import type { SchemaMigration } from './db/migration-kit.js';
import type { App } from './http.js';
import type { JobWorker } from './jobs.js';
import type { CorsDelegate } from './operations.js';

export interface TagDoc {
  name: string;
  description: string;
}

/** Work a process runs beside its HTTP server until it stops (a pump, a listener). */
export interface BackgroundWork {
  start(): void;
  stop(graceMs: number): Promise<void>;
}

/** A usage mistake on the command line: main.ts prints the message and the usage, exit code 2. */
export class CommandUsageError extends Error {}

/**
 * A command of the CLI an area offers (`npm run cli -- <name> …`). It reads its arguments
 * first (a mistake throws `CommandUsageError` before any database is opened), then calls
 * `open` for its services (the runtime is closed after it), and answers the text to print.
 */
export interface AreaCommand<TUses> {
  /** Its lines of the CLI's usage text. */
  usage: readonly string[];
  run(args: string[], open: () => Promise<TUses>): Promise<string>;
}

/** A string option of `util.parseArgs`'s values. */
export function stringOption(
  values: Record<string, string | boolean | (string | boolean)[] | undefined>,
  name: string,
): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export interface ModuleDefinition<TUses = unknown, TTables extends object = object> {
  /** The folder under `src/modules/`. */
  readonly area: string;
  /** One sentence: what the area is for (ARCHITECTURE.md's table shows it). */
  readonly purpose: string;
  /** The services this area builds in the composition root and offers other areas (names in `Services`). */
  readonly offers: readonly string[];
  /** Other areas whose services it is given (declared, so that the graph is read here and not guessed). */
  readonly dependsOn: readonly string[];
  /** Only a type: the tables this area owns (`src/tables.ts` joins them). Never set at runtime. */
  readonly tables?: TTables;
  /** Names of the migrations in `platform/db/migrations/` that made its tables (before areas had their own migrations folders). */
  readonly migrationHistory: readonly string[];
  /** Its own schema migrations (new ones live in `modules/<area>/migrations/`), applied after the history. */
  readonly migrations?: readonly SchemaMigration[];
  /** Tags of its operations in the OpenAPI document, described. */
  readonly tags?: readonly TagDoc[];
  /** Response models the OpenAPI document publishes under a name. */
  readonly schemas?: Readonly<Record<string, TSchema>>;
  /** Checks every request makes (onRequest hooks after authentication, before any route's own). */
  requestHooks?(app: App, uses: TUses): void;
  /** CORS of its own paths (a browser page of another origin calls them). */
  cors?(): CorsDelegate;
  /** Registers its HTTP operations (awaited: an area may register a plugin). */
  routes?(app: App, uses: TUses): void | Promise<void>;
  /** Registers the handlers of its job kinds on a process's worker (the log is the operator's). */
  jobs?(worker: JobWorker, uses: TUses, log: FastifyBaseLogger): void;
  /** Queues its recurring jobs (once per start; the queue keeps one of each). */
  schedules?(uses: TUses): Promise<void>;
  /** Hourly upkeep (purges, reloads), by name for the log line of a failure. */
  hourly?(uses: TUses): Record<string, () => Promise<unknown>>;
  /** Commands of the CLI, by their first word (`account`, `sandbox`). */
  readonly commands?: Readonly<Record<string, AreaCommand<TUses>>>;
  /** Work beside the HTTP server (started after the job worker, stopped with it). */
  background?(uses: TUses, log: FastifyBaseLogger): BackgroundWork[];
}

/** Checks a definition against the shape while keeping its own types (for `src/modules.ts`). */
export function defineModule<TUses, TTables extends object = object>(
  definition: ModuleDefinition<TUses, TTables>,
): ModuleDefinition<TUses, TTables> {
  return definition;
}
