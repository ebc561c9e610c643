import { builder } from '../../graphql/builder.js';
import { AgentRef } from '../agents/agents.graphql.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { CreateToolSchema, HeaderInputSchema, ToolDtoSchema, ToolRunResultSchema, UpdateToolSchema } from './tools.schemas.js';
import {
  createTool,
  deleteTool,
  getTool,
  linkTool,
  listTools,
  loadToolsByAgent,
  testTool,
  toToolDto,
  unlinkTool,
  updateTool,
} from './tools.service.js';
import { plainInput } from '../../graphql/plain-input.js';

const ToolHeaderRef = objectFromZod('ToolHeader', ToolDtoSchema.shape.headers.element, {
  description: 'A request header of a tool; a secret header never shows its value.',
});

export const ToolRef = objectFromZod('Tool', ToolDtoSchema, {
  description: 'A workspace HTTP tool offered to linked agents as a function (same fields as the REST resource).',
  types: { headers: ToolHeaderRef },
});

builder.objectField(AgentRef, 'tools', (t) =>
  t.loadableList({
    type: ToolRef,
    description: 'Tools linked to the agent, in link order (batched across agents).',
    load: async (ids: string[], ctx) => (await loadToolsByAgent(await ctx.service(), ids)).map((list) => list.map(toToolDto)),
    resolve: (agent) => agent.id,
  }),
);

const ToolOutcomeRef = objectFromZod('ToolRunResult', ToolRunResultSchema, {
  description: 'Outcome of one tool call: success is false for any failure, with result.error saying why.',
});

// Derived from the zod schemas the service parses with (src/graphql/from-zod.ts).
const ToolHeaderInput = inputFromZod('ToolHeaderInput', HeaderInputSchema, {
  descriptions: { value: 'Omit on a secret header to keep its stored value' },
});

const ToolInput = inputFromZod('ToolInput', CreateToolSchema, { names: { method: 'ToolMethod' }, types: { headers: ToolHeaderInput } });

const UpdateToolInput = inputFromZod('UpdateToolInput', UpdateToolSchema, {
  description: 'Partial update: omitted or null fields keep their value; headers replaces the whole list.',
  names: { method: 'ToolMethod' },
  types: { headers: ToolHeaderInput },
});

builder.queryFields((t) => ({
  tools: t.field({
    type: [ToolRef],
    description: 'HTTP tools of the workspace, oldest first.',
    resolve: async (_r, _a, ctx) => (await listTools(await ctx.service())).map(toToolDto),
  }),
  tool: t.field({
    type: ToolRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => toToolDto(await getTool(await ctx.service(), String(args.id))),
  }),
}));

builder.mutationFields((t) => ({
  createTool: t.field({
    type: ToolRef,
    args: { input: t.arg({ type: ToolInput, required: true }) },
    resolve: async (_r, args, ctx) => toToolDto(await createTool(await ctx.service(), plainInput(args.input))),
  }),
  updateTool: t.field({
    type: ToolRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateToolInput, required: true }) },
    resolve: async (_r, args, ctx) => toToolDto(await updateTool(await ctx.service(), String(args.id), plainInput(args.input))),
  }),
  deleteTool: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteTool(await ctx.service(), String(args.id));
      return true;
    },
  }),
  testTool: t.field({
    type: ToolOutcomeRef,
    args: { id: t.arg.id({ required: true }), arguments: t.arg({ type: 'JSON', required: false }) },
    resolve: async (_r, args, ctx) => testTool(await ctx.service(), String(args.id), { arguments: args.arguments ?? {} }),
  }),
  linkTool: t.field({
    type: [ToolRef],
    args: { agentId: t.arg.id({ required: true }), toolId: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => (await linkTool(await ctx.service(), String(args.agentId), { toolId: args.toolId })).map(toToolDto),
  }),
  unlinkTool: t.boolean({
    args: { agentId: t.arg.id({ required: true }), toolId: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await unlinkTool(await ctx.service(), String(args.agentId), args.toolId);
      return true;
    },
  }),
}));
