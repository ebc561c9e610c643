import { Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { Deps } from '../src/core/deps.js';
import { errors } from '../src/errors/index.js';
import { buildMcpServer } from '../src/modules/mcp/index.js';
import { targetOf } from '../src/pipeline/operation.js';
import { admit } from '../src/pipeline/pipeline.js';
import { mount } from './route.js';

const JsonRpcMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]).optional().describe('Absent on notifications'),
    method: z.string().describe('initialize, tools/list, tools/call, ping, notifications/initialized...'),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .describe('One JSON-RPC 2.0 message of the Model Context Protocol (streamable HTTP transport, stateless)');

const JsonRpcReply = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
});

/** The JSON-RPC methods of a body (one message, or a batch) that are not tool calls. */
function protocolMessages(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => !(typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call')).length;
}

/** What a protocol message (initialize, tools/list, ping, a notification) is admitted as: the key's rate, nothing else. */
const PROTOCOL_OP = { name: 'POST /mcp', needs: {} };

/**
 * `POST /mcp` (SPEC Route inventory): the MCP tool server over stateless streamable HTTP, built with the
 * official SDK. The key is checked before MCP runs (401 in the native shape); every message opens its
 * own request through the pipeline: a protocol message (initialize, tools/list, ping, notifications)
 * counts against the key's rate like any request (429 `rate_limited` in the native shape, before MCP
 * runs), and each tool call is admitted on its own with its operation's needs (src/modules/mcp/): the key's
 * rate, its twin route's ceiling, scope and read-only. Every tool is listed to every key. One server
 * and transport per request: no session, no server-to-client stream, JSON answers.
 */
export function mcpRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'mcp', scope: null, admitsItself: true, path: '/mcp' } as const;

  mount(r, app, {
    ...base,
    method: 'post',
    // Its body errors and failures answer as JSON-RPC error objects (auth-stage refusals stay native).
    dialect: 'jsonrpc',
    summary:
      'MCP tool server (stateless streamable HTTP): tools service_ask, knowledge_search, service_verify, poste_run, flow_list, flow_run, run_status, approvals_list; each checks its own scope when called',
    write: false,
    body: JsonRpcMessage,
    unknownFields: 'ignored', // JSON-RPC 2.0: the MCP SDKs add members of newer protocol versions
    responses: {
      200: { description: 'The JSON-RPC response (a refused or failed tool call is a result with isError: true)', schema: JsonRpcReply },
      202: { description: 'A notification or response was accepted (no body)' },
      400: { description: 'Not a valid JSON-RPC message: from the MCP SDK, or a body that does not read as one JSON object (-32700) or a field refused (-32600)', schema: JsonRpcReply },
      429: { description: "rate_limited: a protocol message (initialize, tools/list, ping) counts against the key's ratePerMinute; a tool call's refusal is a tool error" },
      406: { description: 'Accept must list application/json and text/event-stream', schema: JsonRpcReply },
    },
    handler: async (ctx, req, res) => {
      for (let i = protocolMessages(req.body); i > 0; i--) await admit(app, ctx.caller, PROTOCOL_OP, { log: ctx.log, scope: ctx.scope, requestId: ctx.requestId });
      const server = buildMcpServer(
        (operation) => admit(app, ctx.caller, targetOf(operation), { log: ctx.log, signal: ctx.signal, requestId: ctx.requestId }),
        ctx.log,
      );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  });

  for (const method of ['get', 'delete'] as const) {
    mount(r, app, {
      ...base,
      method,
      summary: `Not offered: the endpoint is stateless (no server stream, no session to ${method === 'get' ? 'open' : 'end'})`,
      responses: { 405: { description: 'method_not_allowed, with Allow: POST' } },
      handler: () => Promise.reject(errors.methodNotAllowed('POST')),
    });
  }
  return r;
}
