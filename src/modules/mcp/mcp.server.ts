import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceContext } from '../../core/context.js';
import type { Operation } from '../../core/operation.js';
import type { Logger } from '../../lib/logger.js';
import { mcpToolError, toDomainError } from '../../errors/index.js';
import { MCP_TOOLS, runTool, type McpTool } from './mcp.tools.js';

/**
 * Admits one tool call through the request pipeline with the needs of the tool's operation (the key's
 * rate, the ceiling counted in the operation's REST route's bucket, scope, read-only) and returns its
 * service context; the adapter provides it (`rest/mcp.routes.ts`).
 */
export type AdmitTool = (operation: Operation) => Promise<ServiceContext>;

export const MCP_SERVER_INFO = { name: 'svc', version: '1.0.0' } as const;

/**
 * The MCP server of one request (the endpoint is stateless): every tool registered, each admitted on its
 * own when called. A refusal (scope, read-only, limits, allowance) or a failure of the use case is a
 * tool error (`isError: true`, rendered by `mcpToolError`, src/errors/render.ts) whose text names the code and says why, never a protocol error: the
 * model reading it can tell the user what is missing.
 */
export function buildMcpServer(admitTool: AdmitTool, log: Logger): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  for (const tool of MCP_TOOLS) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input }, async (args: Record<string, unknown>) =>
      callTool(tool, args ?? {}, admitTool, log),
    );
  }
  return server;
}

async function callTool(tool: McpTool, args: Record<string, unknown>, admitTool: AdmitTool, log: Logger): Promise<CallToolResult> {
  let ctx: ServiceContext | undefined;
  try {
    ctx = await admitTool(tool.operation);
    const result = await runTool(tool, ctx, args);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    const { error, unexpected } = toDomainError(err);
    if (unexpected) log.error({ err, tool: tool.name }, 'MCP tool failed unexpectedly');
    return mcpToolError(error);
  } finally {
    await ctx?.scope.dispose();
  }
}
