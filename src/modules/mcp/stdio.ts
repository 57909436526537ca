/**
 * The MCP server over stdio (`npm run -s cli -- mcp`): an MCP client (Claude Desktop, an IDE)
 * starts the process and speaks JSON-RPC on its stdin and stdout. stdout carries protocol
 * messages only: the app logs to stderr (main.ts builds it so). The tools are the same as over
 * HTTP, each call made to the in-process API with the given token, as from 127.0.0.1.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { TokenResolver } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import type { McpCaller } from './operation-call.js';
import { MCP_BODY_LIMIT } from './routes.js';
import { buildMcpServer } from './server.js';

export interface StdioOptions {
  token: string;
  /** The Shop-Id the tools send when a call names none. */
  shopId?: string;
  publicUrl: string;
  /** `ru` when the person's locale is Russian (LANG), for the API's refusals and our sentences. */
  acceptLanguage?: string;
  input?: Readable;
  output?: Writable;
}

/** Serves MCP on stdin/stdout until the client closes stdin (or the process is stopped). */
export async function serveMcpOverStdio(app: App, tokens: TokenResolver, options: StdioOptions): Promise<void> {
  const scope = await tokens.resolve(options.token);
  if (!scope) throw new AppError(401, 'invalid_token', 'The token is unknown, revoked or expired.');
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const caller: McpCaller = {
    authorization: `Bearer ${options.token}`,
    ip: '127.0.0.1',
    shopId: options.shopId,
    acceptLanguage: options.acceptLanguage,
    userAgent: 'MCP client over stdio',
  };
  const server = buildMcpServer({ app, scope, caller, publicUrl: options.publicUrl });
  // the client's name and version, once it has said them, name its calls in the logs and the audit trail
  server.server.oninitialized = () => {
    const client = server.server.getClientVersion();
    if (client) caller.userAgent = `${client.name}/${client.version} (MCP over stdio)`;
  };
  const transport = new StdioServerTransport(input, output, { maxBufferSize: MCP_BODY_LIMIT });
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  const stop = () => void transport.close();
  input.once('end', stop);
  input.once('close', stop);
  await server.connect(transport);
  await closed;
}
