import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
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
} from './tools.service.js';

// The tools family's use cases (issue 29 §1): rest/v1/tools.routes.ts and tools.graphql.ts refer to these,
// and the request pipeline admits the caller with their needs. Tools belong to the agents family's scope.
const READ = { scope: 'agents' } as const;
const WRITE = { scope: 'agents', write: true } as const;
const ById = z.object({ id: z.string() });
const ByIdWithBody = ById.extend({ body: z.unknown() });

export const listToolsOp = defineOperation({
  name: 'tools.list',
  route: 'GET /v1/tools',
  needs: READ,
  input: z.object({}),
  run: async (ctx) => (await listTools(ctx)).map(toToolDto),
});

export const getToolOp = defineOperation({
  name: 'tools.get',
  route: 'GET /v1/tools/:id',
  needs: READ,
  input: ById,
  run: async (ctx, { id }) => toToolDto(await getTool(ctx, id)),
});

export const createToolOp = defineOperation({
  name: 'tools.create',
  route: 'POST /v1/tools',
  needs: WRITE,
  input: z.object({ body: z.unknown() }),
  run: async (ctx, { body }) => toToolDto(await createTool(ctx, body)),
});

export const updateToolOp = defineOperation({
  name: 'tools.update',
  route: 'PUT /v1/tools/:id',
  needs: WRITE,
  input: ByIdWithBody,
  run: async (ctx, { id, body }) => toToolDto(await updateTool(ctx, id, body)),
});

export const deleteToolOp = defineOperation({
  name: 'tools.delete',
  route: 'DELETE /v1/tools/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteTool(ctx, id);
    return true as const;
  },
});

/** Calls the tool once with `{ arguments }`, as a turn would (a write: the tool's API is called). */
export const testToolOp = defineOperation({
  name: 'tools.test',
  route: 'POST /v1/tools/:id/test',
  needs: WRITE,
  input: ByIdWithBody,
  run: (ctx, { id, body }) => testTool(ctx, id, body),
});

export const listAgentToolsOp = defineOperation({
  name: 'tools.listOfAgent',
  route: 'GET /v1/agents/:id/tools',
  needs: READ,
  input: ById,
  run: async (ctx, { id }) => (await listAgentTools(ctx, id)).map(toToolDto),
});

export const linkToolOp = defineOperation({
  name: 'tools.link',
  route: 'POST /v1/agents/:id/tools',
  needs: WRITE,
  input: ByIdWithBody,
  run: async (ctx, { id, body }) => (await linkTool(ctx, id, body)).map(toToolDto),
});

export const unlinkToolOp = defineOperation({
  name: 'tools.unlink',
  route: 'DELETE /v1/agents/:id/tools/:toolId',
  needs: WRITE,
  input: ById.extend({ toolId: z.string() }),
  run: async (ctx, { id, toolId }) => {
    await unlinkTool(ctx, id, toolId);
    return true as const;
  },
});
