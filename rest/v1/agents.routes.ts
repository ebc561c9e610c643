import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { AgentDtoSchema, CreateAgentSchema, UpdateAgentSchema } from '../../src/modules/agents/agents.schemas.js';
import { createAgent, deleteAgent, listAgents, toAgentDto, updateAgent } from '../../src/modules/agents/agents.service.js';
import { mount, param } from '../route.js';


export function agentsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'agents', scope: 'agents' } as const;
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/agents',
    summary: 'List the workspace agents, oldest first',
    responses: { 200: { description: 'Agents', schema: z.object({ agents: z.array(AgentDtoSchema) }) } },
    handler: async (ctx) => ({ status: 200, body: { agents: (await listAgents(ctx)).map(toAgentDto) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/agents',
    summary: 'Create an agent',
    body: CreateAgentSchema,
    responses: {
      201: { description: 'Created', schema: z.object({ agent: AgentDtoSchema }) },
      400: { description: 'Missing or empty field' },
    },
    handler: async (ctx, req) => ({ status: 201, body: { agent: toAgentDto(await createAgent(ctx, req.body)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'put',
    path: '/v1/agents/:id',
    summary: 'Partially update an agent (omitted or null fields keep their value)',
    body: UpdateAgentSchema,
    responses: {
      200: { description: 'Updated', schema: z.object({ agent: AgentDtoSchema }) },
      404: { description: 'Unknown agent' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { agent: toAgentDto(await updateAgent(ctx, param(req, 'id'), req.body)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/v1/agents/:id',
    summary: 'Delete an agent and its memories',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown agent' } },
    handler: async (ctx, req) => {
      await deleteAgent(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });
  return r;
}
