/**
 * The MCP server of one caller: the tools and resources its key may call (the key scopes'
 * `keyAllows` on each one's operation), every call made through the API (operation-call.ts).
 * A tool the key may not call is absent from tools/list, and a call of it anyway is refused (a
 * tool error naming the scope it needs) before anything is sent to the API.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Scope } from '../../platform/auth.js';
import { errorLanguage, type Language } from '../../platform/error-language.js';
import type { App } from '../../platform/http.js';
import { keyAllows, scopesNeeded } from '../../platform/key-scopes.js';
import { SENTENCES, answerResult, refusalResult, textResult } from './answers.js';
import { callOperation, ownFilePath, type McpCaller, type OperationRequest } from './operation-call.js';
import { operationCatalogueOf, type JsonSchema, type OperationCatalogue } from './operation-schemas.js';
import { IDEMPOTENCY_ARGUMENT, RESOURCES, SHOP_ARGUMENT, TOOLS, type ToolDefinition } from './tools.js';

export const MCP_SERVER_NAME = 'delivery-service';
export const MCP_SERVER_VERSION = '1.0.0';

/** Array items and object members one call's arguments may hold (an order of 1,000 goods fits). */
export const MAX_TOOL_INPUT_ELEMENTS = 50_000;

/** A PDF embedded in a tool result at most (a model's client takes it whole). */
export const MAX_EMBEDDED_PDF_BYTES = 2 * 1024 * 1024;

const INSTRUCTIONS = [
  'Tools of a delivery and fulfilment service (Russian delivery companies): price parcels, find pickup points, create and confirm orders, labels, tracking, pickups, stock.',
  'Money is in roubles, weights in kg, sizes in cm. Each tool is one API operation; its errors are the API\'s ("HTTP 422 code: message" with the fields).',
  'confirm_orders and book_pickup are sent to delivery companies and may cost money: ask the person before calling them.',
].join(' ');

/** The object of a tool's input: the operation's request part, the header arguments, the tool-only ones. */
export function toolInputSchema(tool: ToolDefinition, catalogue: OperationCatalogue): JsonSchema {
  const schemas = catalogue.schemasOf(tool.method, tool.url);
  const part =
    tool.argumentsGoTo === 'body'
      ? schemas.body
      : tool.argumentsGoTo === 'query'
        ? schemas.querystring
        : schemas.params;
  const schema: JsonSchema = structuredClone(part ?? { type: 'object', properties: {} });
  tool.narrow?.(schema);
  const properties = { ...((schema.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  if (tool.shopHeader) properties.asShopId = SHOP_ARGUMENT;
  if (tool.idempotencyKey) properties.idempotencyKey = IDEMPOTENCY_ARGUMENT;
  Object.assign(properties, tool.extraArguments ?? {});
  return {
    type: 'object',
    properties,
    ...(Array.isArray(schema.required) && schema.required.length > 0 ? { required: schema.required } : {}),
    additionalProperties: false,
  };
}

/** A tool as it is offered: its description, its input's JSON Schema (listed) and zod schema (the SDK validates with it). */
interface PreparedTool {
  definition: ToolDefinition;
  listed: Tool;
  zodInput: z.ZodType;
}

/** Each tool prepared once per app: converting schemas on every stateless request would cost ~25 ms a tools/list. */
const preparedTools = new WeakMap<OperationCatalogue, PreparedTool[]>();

function prepareTools(catalogue: OperationCatalogue): PreparedTool[] {
  let prepared = preparedTools.get(catalogue);
  if (prepared) return prepared;
  prepared = TOOLS.map((definition) => {
    const summary = catalogue.schemasOf(definition.method, definition.url).summary;
    const inputSchema = toolInputSchema(definition, catalogue);
    const listed: Tool = {
      name: definition.name,
      title: definition.title,
      description: `${definition.description}${summary ? ` (API: ${definition.method} ${definition.url}, "${summary}")` : ''}`,
      // the operation's own schema as it is, not a round trip through zod
      inputSchema: inputSchema as Tool['inputSchema'],
      annotations: {
        title: definition.title,
        readOnlyHint: definition.effect === 'reads',
        destructiveHint: definition.effect === 'changes',
        idempotentHint: definition.effect !== 'changes',
        openWorldHint: definition.reachesCompanies,
      },
    };
    const zodInput = z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
    return { definition, listed, zodInput };
  });
  preparedTools.set(catalogue, prepared);
  return prepared;
}

function queryValue(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((item) => String(item));
  return String(value);
}

/** The API request a tool's (validated) arguments make. */
export function operationRequestOf(tool: ToolDefinition, args: Record<string, unknown>): OperationRequest {
  const { asShopId, idempotencyKey, ...rest } = args;
  for (const extra of Object.keys(tool.extraArguments ?? {})) delete rest[extra];
  let path = tool.url;
  if (tool.argumentsGoTo === 'path') {
    path = tool.url.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(String(rest[name] ?? '')));
  }
  const request: OperationRequest = {
    method: tool.method,
    path,
    ...(typeof asShopId === 'number' ? { shopId: asShopId } : {}),
    ...(typeof idempotencyKey === 'string' ? { idempotencyKey } : {}),
  };
  if (tool.argumentsGoTo === 'body') request.body = rest;
  if (tool.argumentsGoTo === 'query')
    request.query = Object.fromEntries(
      Object.entries(rest)
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([name, value]) => [name, queryValue(value)]),
    );
  return request;
}

async function stickersResult(
  app: App,
  caller: McpCaller,
  args: Record<string, unknown>,
  answer: Awaited<ReturnType<typeof callOperation>>,
  publicUrl: string,
  language: Language,
): Promise<CallToolResult> {
  const link = (answer.json as { file?: unknown } | null)?.file;
  if (answer.statusCode !== 200 || typeof link !== 'string') return answerResult(answer, language);
  const linkText = SENTENCES.fileLink(link)[language];
  if (args.embedPdf !== true) return textResult([linkText]);
  const notEmbedded = (reason: Record<Language, string>) =>
    textResult([linkText, SENTENCES.fileNotEmbedded(reason)[language]]);
  const path = ownFilePath(link, publicUrl);
  if (!link.endsWith('.pdf') || path === null) return notEmbedded(SENTENCES.notPdf);
  const file = await callOperation(app, caller, { method: 'GET', path });
  if (file.statusCode !== 200) return notEmbedded(SENTENCES.notReadable);
  if (file.rawPayload.length > MAX_EMBEDDED_PDF_BYTES) return notEmbedded(SENTENCES.tooLarge(MAX_EMBEDDED_PDF_BYTES));
  return {
    content: [
      { type: 'text', text: linkText },
      {
        type: 'resource',
        resource: { uri: link, mimeType: 'application/pdf', blob: file.rawPayload.toString('base64') },
      },
    ],
  };
}

export interface McpServerContext {
  app: App;
  /** The caller's Scope (its key scopes choose the tools). */
  scope: Scope;
  caller: McpCaller;
  publicUrl: string;
}

/** A server with the tools and resources this caller's key may call. */
export function buildMcpServer({ app, scope, caller, publicUrl }: McpServerContext): McpServer {
  const catalogue = operationCatalogueOf(app);
  const language = errorLanguage(caller.acceptLanguage);
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      instructions: INSTRUCTIONS,
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      capabilities: { tools: {}, resources: {} },
    },
  );
  const prepared = prepareTools(catalogue);
  for (const { definition: tool, listed, zodInput } of prepared) {
    server.registerTool(
      tool.name,
      {
        title: listed.title,
        description: listed.description,
        inputSchema: zodInput,
        annotations: listed.annotations,
      },
      async (args: unknown): Promise<CallToolResult> => {
        // unlisted for this key (below), and refused here if called anyway: nothing reaches the API
        if (!keyAllows(scope, tool.method, tool.url))
          return textResult([SENTENCES.notAllowed(tool.name, scopesNeeded(tool.method, tool.url))[language]], true);
        const values = (args ?? {}) as Record<string, unknown>;
        // the tool's name in the user agent: the API's log line and the audit trail tell MCP calls apart
        const toolCaller = { ...caller, userAgent: `${caller.userAgent} mcp-tool/${tool.name}` };
        const answer = await callOperation(app, toolCaller, operationRequestOf(tool, values));
        if (tool.name === 'get_stickers') return stickersResult(app, toolCaller, values, answer, publicUrl, language);
        return answerResult(answer, language);
      },
    );
  }
  const offered = prepared.filter(({ definition }) => keyAllows(scope, definition.method, definition.url));
  const listedTools = offered.map(({ listed }) => listed);
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools }));
  for (const resource of RESOURCES) {
    if (!keyAllows(scope, 'GET', resource.url)) continue;
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: 'application/json' },
      async (uri) => {
        const answer = await callOperation(app, caller, { method: 'GET', path: resource.url });
        if (answer.statusCode >= 400) {
          const refusal = refusalResult(answer).content[0];
          throw new Error(refusal?.type === 'text' ? refusal.text : `HTTP ${answer.statusCode}`);
        }
        return {
          contents: [{ uri: uri.href, mimeType: 'application/json', text: answer.rawPayload.toString('utf8') }],
        };
      },
    );
  }
  return server;
}
