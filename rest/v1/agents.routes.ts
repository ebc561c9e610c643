import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { AgentDtoSchema, CreateAgentSchema, UpdateAgentSchema } from '../../src/modules/agents/index.js';
import { createAgentOp, deleteAgentOp, listAgentsOp, updateAgentOp } from '../../src/modules/agents/index.js';
import { mountOperation, param } from '../route.js';

export function agentsRouter(app: Deps): Router {
  const r = Router();
  const tag = 'agents';
  mountOperation(r, app, listAgentsOp, {
    tag,
    summary: 'List the workspace agents, oldest first',
    responses: { 200: { description: 'Agents', schema: z.object({ agents: z.array(AgentDtoSchema) }) } },
    input: () => ({}),
    reply: (agents) => ({ status: 200, body: { agents } }),
  });
  mountOperation(r, app, createAgentOp, {
    tag,
    summary: 'Create an agent',
    body: CreateAgentSchema,
    responses: {
      201: { description: 'Created', schema: z.object({ agent: AgentDtoSchema }) },
      400: { description: 'Missing or empty field' },
    },
    input: (req) => ({ body: req.body }),
    reply: (agent) => ({ status: 201, body: { agent } }),
  });
  mountOperation(r, app, updateAgentOp, {
    tag,
    summary: 'Partially update an agent (omitted or null fields keep their value)',
    body: UpdateAgentSchema,
    responses: {
      200: { description: 'Updated', schema: z.object({ agent: AgentDtoSchema }) },
      404: { description: 'Unknown agent' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (agent) => ({ status: 200, body: { agent } }),
  });
  mountOperation(r, app, deleteAgentOp, {
    tag,
    summary: 'Delete an agent and its memories',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown agent' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  return r;
}
