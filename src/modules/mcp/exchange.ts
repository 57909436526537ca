/**
 * One Streamable HTTP exchange: a fresh server for the caller and a stateless transport that
 * answers JSON. Loaded on the first `POST /mcp` (routes.ts): the SDK and zod cost ~35 MB of RSS,
 * which a process that never meets an agent should not carry.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { buildMcpServer, type McpServerContext } from './server.js';

export interface ExchangeAnswer {
  status: number;
  headers: [string, string][];
  text: string;
}

/** Answers one HTTP request (its body already parsed and bounded) for this caller. */
export async function exchange(context: McpServerContext, request: Request, body: unknown): Promise<ExchangeAnswer> {
  const server = buildMcpServer(context);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => {
      headers.push([name, value]);
    });
    return { status: response.status, headers, text: await response.text() };
  } finally {
    await server.close();
  }
}
