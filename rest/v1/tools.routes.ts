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
  createToolOp,
  deleteToolOp,
  getToolOp,
  linkToolOp,
  listAgentToolsOp,
  listToolsOp,
  testToolOp,
  unlinkToolOp,
  updateToolOp,
} from '../../src/modules/tools/index.js';
import { mountOperation, param } from '../route.js';

const ToolReply = z.object({ tool: ToolDtoSchema });
const ToolsReply = z.object({ tools: z.array(ToolDtoSchema) });

export function toolsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'tools' } as const;

  mountOperation(r, app, listToolsOp, {
    ...base,
    summary: 'List the workspace HTTP tools, oldest first (secret header values never returned)',
    responses: { 200: { description: 'Tools', schema: ToolsReply } },
    input: () => ({}),
    reply: (tools) => ({ status: 200, body: { tools } }),
  });
  mountOperation(r, app, createToolOp, {
    ...base,
    summary: 'Create an HTTP tool (name, description, inputSchema, method, urlTemplate, headers, timeoutMs, isActive)',
    body: CreateToolSchema,
    responses: {
      201: { description: 'Created', schema: ToolReply },
      400: { description: 'Missing or invalid field, URL refused, name taken' },
    },
    input: (req) => ({ body: req.body }),
    reply: (tool) => ({ status: 201, body: { tool } }),
  });
  mountOperation(r, app, getToolOp, {
    ...base,
    summary: 'Read a tool',
    responses: { 200: { description: 'Tool', schema: ToolReply }, 404: { description: 'Unknown tool' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (tool) => ({ status: 200, body: { tool } }),
  });
  mountOperation(r, app, updateToolOp, {
    ...base,
    summary: 'Partially update a tool; headers replace the list (a secret header sent without value keeps its value)',
    body: UpdateToolSchema,
    responses: {
      200: { description: 'Updated', schema: ToolReply },
      400: { description: 'Invalid field' },
      404: { description: 'Unknown tool' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (tool) => ({ status: 200, body: { tool } }),
  });
  mountOperation(r, app, deleteToolOp, {
    ...base,
    summary: 'Delete a tool (and its agent links)',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown tool' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  mountOperation(r, app, testToolOp, {
    ...base,
    summary: 'Call the tool once with { arguments } and report the outcome as a turn would see it',
    body: TestToolSchema,
    responses: { 200: { description: 'Outcome (success false for a failing API)', schema: ToolRunResultSchema }, 404: { description: 'Unknown tool' } },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (outcome) => ({ status: 200, body: outcome }),
  });

  mountOperation(r, app, listAgentToolsOp, {
    ...base,
    summary: "The agent's linked tools, in link order",
    responses: { 200: { description: 'Tools', schema: ToolsReply }, 404: { description: 'Unknown agent' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (tools) => ({ status: 200, body: { tools } }),
  });
  mountOperation(r, app, linkToolOp, {
    ...base,
    summary: 'Link a tool ({ toolId }) to the agent',
    body: LinkToolSchema,
    responses: {
      200: { description: 'Linked tools after the change', schema: ToolsReply },
      400: { description: 'Tool not found' },
      404: { description: 'Unknown agent' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (tools) => ({ status: 200, body: { tools } }),
  });
  mountOperation(r, app, unlinkToolOp, {
    ...base,
    summary: 'Unlink a tool from the agent',
    responses: { 204: { description: 'Unlinked' }, 404: { description: 'Unknown agent or no such link' } },
    input: (req) => ({ id: param(req, 'id'), toolId: param(req, 'toolId') }),
    reply: () => ({ status: 204 }),
  });
  return r;
}
