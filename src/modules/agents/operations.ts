import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { createAgent, deleteAgent, getAgent, listAgents, toAgentDto, updateAgent, updateAgentConsoleFields } from './agents.service.js';

// The agents family's use cases (issue 29 §1): the REST routes (rest/v1/agents.routes.ts) and the GraphQL
// fields (agents.graphql.ts) refer to these; the request pipeline admits the caller with their needs.
const READ = { scope: 'agents' } as const;
const WRITE = { scope: 'agents', write: true } as const;

/** The agent's id, and the body the service parses with its schema (so REST and GraphQL word refusals alike). */
const ById = z.object({ id: z.string() });
const Body = z.object({ body: z.unknown() });
const ByIdWithBody = ById.extend({ body: z.unknown() });

export const listAgentsOp = defineOperation({
  name: 'agents.list',
  route: 'GET /v1/agents',
  needs: READ,
  input: z.object({}),
  run: async (ctx) => (await listAgents(ctx)).map(toAgentDto),
});

export const getAgentOp = defineOperation({
  name: 'agents.get',
  needs: READ,
  input: ById,
  run: async (ctx, { id }) => toAgentDto(await getAgent(ctx, id)),
});

export const createAgentOp = defineOperation({
  name: 'agents.create',
  route: 'POST /v1/agents',
  needs: WRITE,
  input: Body,
  run: async (ctx, { body }) => toAgentDto(await createAgent(ctx, body)),
});

export const updateAgentOp = defineOperation({
  name: 'agents.update',
  route: 'PUT /v1/agents/:id',
  needs: WRITE,
  input: ByIdWithBody,
  run: async (ctx, { id, body }) => toAgentDto(await updateAgent(ctx, id, body)),
});

/** The console-only lists of an agent: signed-in people only (API-created agents keep them empty). */
export const updateAgentConsoleFieldsOp = defineOperation({
  name: 'agents.updateConsoleFields',
  needs: { ...WRITE, person: true },
  input: ByIdWithBody,
  run: async (ctx, { id, body }) => toAgentDto(await updateAgentConsoleFields(ctx, id, body)),
});

export const deleteAgentOp = defineOperation({
  name: 'agents.delete',
  route: 'DELETE /v1/agents/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteAgent(ctx, id);
    return true as const;
  },
});
