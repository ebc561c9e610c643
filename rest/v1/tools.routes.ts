import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import {
  CreateToolSchema,
  LinkToolSchema,
  TestToolSchema,
  ToolDtoSchema,
  ToolRunResultSchema,
  UpdateToolSchema,
} from '../../src/modules/tools/index.js';
import {
  createTool,
  deleteTool,
  getTool,
  linkTool,
  listAgentTools,
  listTools,
  testTool,
  toToolDto,
  unlinkTool,
  updateTool,
} from '../../src/modules/tools/index.js';
import { mount, param } from '../route.js';

const ToolReply = z.object({ tool: ToolDtoSchema });
const ToolsReply = z.object({ tools: z.array(ToolDtoSchema) });

export function toolsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'tools', scope: 'agents' } as const;

  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/tools',
    summary: 'List the workspace HTTP tools, oldest first (secret header values never returned)',
    responses: { 200: { description: 'Tools', schema: ToolsReply } },
    handler: async (ctx) => ({ status: 200, body: { tools: (await listTools(ctx)).map(toToolDto) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/tools',
    summary: 'Create an HTTP tool (name, description, inputSchema, method, urlTemplate, headers, timeoutMs, isActive)',
    body: CreateToolSchema,
    responses: {
      201: { description: 'Created', schema: ToolReply },
      400: { description: 'Missing or invalid field, URL refused, name taken' },
    },
    handler: async (ctx, req) => ({ status: 201, body: { tool: toToolDto(await createTool(ctx, req.body)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/tools/:id',
    summary: 'Read a tool',
    responses: { 200: { description: 'Tool', schema: ToolReply }, 404: { description: 'Unknown tool' } },
    handler: async (ctx, req) => ({ status: 200, body: { tool: toToolDto(await getTool(ctx, param(req, 'id'))) } }),
  });
  mount(r, app, {
    ...base,
    method: 'put',
    path: '/v1/tools/:id',
    summary: 'Partially update a tool; headers replace the list (a secret header sent without value keeps its value)',
    body: UpdateToolSchema,
    responses: {
      200: { description: 'Updated', schema: ToolReply },
      400: { description: 'Invalid field' },
      404: { description: 'Unknown tool' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { tool: toToolDto(await updateTool(ctx, param(req, 'id'), req.body)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/v1/tools/:id',
    summary: 'Delete a tool (and its agent links)',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown tool' } },
    handler: async (ctx, req) => {
      await deleteTool(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/tools/:id/test',
    summary: 'Call the tool once with { arguments } and report the outcome as a turn would see it',
    body: TestToolSchema,
    responses: { 200: { description: 'Outcome (success false for a failing API)', schema: ToolRunResultSchema }, 404: { description: 'Unknown tool' } },
    handler: async (ctx, req) => ({ status: 200, body: await testTool(ctx, param(req, 'id'), req.body) }),
  });

  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/agents/:id/tools',
    summary: "The agent's linked tools, in link order",
    responses: { 200: { description: 'Tools', schema: ToolsReply }, 404: { description: 'Unknown agent' } },
    handler: async (ctx, req) => ({ status: 200, body: { tools: (await listAgentTools(ctx, param(req, 'id'))).map(toToolDto) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/agents/:id/tools',
    summary: 'Link a tool ({ toolId }) to the agent',
    body: LinkToolSchema,
    responses: {
      200: { description: 'Linked tools after the change', schema: ToolsReply },
      400: { description: 'Tool not found' },
      404: { description: 'Unknown agent' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { tools: (await linkTool(ctx, param(req, 'id'), req.body)).map(toToolDto) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/v1/agents/:id/tools/:toolId',
    summary: 'Unlink a tool from the agent',
    responses: { 204: { description: 'Unlinked' }, 404: { description: 'Unknown agent or no such link' } },
    handler: async (ctx, req) => {
      await unlinkTool(ctx, param(req, 'id'), param(req, 'toolId'));
      return { status: 204 };
    },
  });
  return r;
}
