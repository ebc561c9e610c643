import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode as JsonRpcErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServiceContext } from '../../core/context.js';
import type { Operation } from '../../core/operation.js';
import type { Logger } from '../../lib/logger.js';
import { firstUnknownField } from '../../lib/unknown-fields.js';
import { mcpToolError, toDomainError, unknownFieldError } from '../../errors/index.js';
import { MCP_TOOLS, runTool, type McpTool } from './mcp.tools.js';

/**
 * Admits one tool call through the request pipeline with the needs of the tool's operation (the key's
 * rate, the ceiling counted in the operation's REST route's bucket, scope, read-only) and returns its
 * service context; the adapter provides it (`rest/mcp.routes.ts`).
 */
export type AdmitTool = (operation: Operation) => Promise<ServiceContext>;

export const MCP_SERVER_INFO = { name: 'svc', version: '1.0.0' } as const;

const BY_NAME = new Map(MCP_TOOLS.map((tool) => [tool.name, tool]));

/** A tool's declared arguments as an object schema: what tools/list shows, and what refuses an argument it does not name. */
const argumentsOf = (tool: McpTool) => z.object(tool.input);

/** What `tools/list` answers: each tool's name, title, description and the JSON Schema of its arguments. */
const LISTED: Tool[] = MCP_TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: z.toJSONSchema(argumentsOf(tool), { io: 'input', target: 'draft-7' }) as Tool['inputSchema'],
}));

/**
 * The MCP server of one request (the endpoint is stateless): every tool listed, each admitted on its own
 * when called. A refusal (scope, read-only, limits, allowance, bad arguments) or a failure of the use
 * case is a tool error (`isError: true`, rendered by `mcpToolError`, src/errors/render.ts) whose text
 * names the code and says why, never a protocol error: the model reading it can tell the user what is
 * missing. The SDK's low-level server is used rather than its `McpServer`, which checks the arguments
 * against the declared shape before the tool runs and answers a mismatch in its own words, without a
 * code or structured content, and drops the arguments the shape does not name: here the arguments reach
 * the use case as sent, which words its refusals as the REST twin does. A tool name no tool has is the
 * protocol's invalid-params error, -32602 (the MCP SDK client throws it as an `McpError`).
 */
export function buildMcpServer(admitTool: AdmitTool, log: Logger): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = BY_NAME.get(request.params.name);
    // A plain error with the JSON-RPC code: an McpError's message already carries the "MCP error" prefix the client adds.
    if (!tool) throw Object.assign(new Error(`Unknown tool: ${request.params.name} (tools/list names the tools)`), { code: JsonRpcErrorCode.InvalidParams });
    return callTool(tool, request.params.arguments ?? {}, admitTool, log);
  });
  return server;
}

async function callTool(tool: McpTool, args: Record<string, unknown>, admitTool: AdmitTool, log: Logger): Promise<CallToolResult> {
  let ctx: ServiceContext | undefined;
  try {
    // The key is judged before the arguments, as a REST route judges it before the body.
    ctx = await admitTool(tool.operation);
    const unknown = firstUnknownField(argumentsOf(tool), args);
    if (unknown) throw unknownFieldError(unknown.path, [unknown.key]);
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
