/**
 * The request schemas of the API operations the MCP tools call, taken from the routes as they
 * register (an `onRoute` hook): a tool's input is the operation's own body, query or path
 * schema, never a second copy that could drift from it. A tool naming an operation no route
 * registers stops the app at `ready` (a renamed route breaks the tests, not a model's call).
 */
import type { App } from '../../platform/http.js';

/** A JSON Schema object, as plain data (TypeBox's own markers dropped). */
export type JsonSchema = { [keyword: string]: unknown };

export interface OperationSchemas {
  body?: JsonSchema;
  querystring?: JsonSchema;
  params?: JsonSchema;
  summary?: string;
}

interface RegisteringRoute {
  method: string | string[];
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown; summary?: string };
}

/** `POST /v2/orders`: an operation as its route registers it (Fastify's pattern, `:id` for parameters). */
export const operationKey = (method: string, url: string): string => `${method.toUpperCase()} ${url}`;

/** Schemas are TypeBox objects: JSON once copied (their markers are not enumerable). */
function plainCopy(schema: unknown): JsonSchema | undefined {
  return schema === undefined ? undefined : (JSON.parse(JSON.stringify(schema)) as JsonSchema);
}

export class OperationCatalogue {
  private readonly found = new Map<string, OperationSchemas>();

  constructor(private readonly wanted: ReadonlySet<string>) {}

  collect(route: RegisteringRoute): void {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      const key = operationKey(method, route.url);
      if (!this.wanted.has(key)) continue;
      this.found.set(key, {
        body: plainCopy(route.schema?.body),
        querystring: plainCopy(route.schema?.querystring),
        params: plainCopy(route.schema?.params),
        summary: route.schema?.summary,
      });
    }
  }

  /** The operations wanted that no route registered (empty once the app is ready). */
  missing(): string[] {
    return [...this.wanted].filter((key) => !this.found.has(key));
  }

  schemasOf(method: string, url: string): OperationSchemas {
    const schemas = this.found.get(operationKey(method, url));
    if (!schemas) throw new Error(`MCP: no route registers ${operationKey(method, url)}`);
    return schemas;
  }
}

const catalogues = new WeakMap<object, OperationCatalogue>();

/** Starts collecting the wanted operations' schemas on this app (before any area's routes register). */
export function collectOperationSchemas(app: App, wanted: ReadonlySet<string>): void {
  const catalogue = new OperationCatalogue(wanted);
  catalogues.set(app, catalogue);
  app.addHook('onRoute', (route) => catalogue.collect(route as RegisteringRoute));
  app.addHook('onReady', async () => {
    const missing = catalogue.missing();
    if (missing.length > 0) throw new Error(`MCP tools name operations no route registers: ${missing.join(', ')}`);
  });
}

export function operationCatalogueOf(app: App): OperationCatalogue {
  const catalogue = catalogues.get(app);
  if (!catalogue) throw new Error('MCP: the operation schemas were not collected on this app (requestHooks not run)');
  return catalogue;
}
