import { builder } from '../../graphql/builder.js';
import { AgentRef } from '../agents/agents.graphql.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { CreateToolSchema, HeaderInputSchema, ToolDtoSchema, ToolRunResultSchema, UpdateToolSchema } from './tools.schemas.js';
import { loadToolsByAgent, toToolDto } from './tools.service.js';
import { operationField } from '../../graphql/root-fields.js';
import { createToolOp, deleteToolOp, getToolOp, linkToolOp, listToolsOp, testToolOp, unlinkToolOp, updateToolOp } from './operations.js';
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
    extensions: operationField(listToolsOp),
    resolve: async (_r, _a, ctx) => listToolsOp.run(await ctx.service(), {}),
  }),
  tool: t.field({
    type: ToolRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getToolOp),
    resolve: async (_r, args, ctx) => getToolOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  createTool: t.field({
    type: ToolRef,
    args: { input: t.arg({ type: ToolInput, required: true }) },
    extensions: operationField(createToolOp),
    resolve: async (_r, args, ctx) => createToolOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  updateTool: t.field({
    type: ToolRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateToolInput, required: true }) },
    extensions: operationField(updateToolOp),
    resolve: async (_r, args, ctx) => updateToolOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  deleteTool: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(deleteToolOp),
    resolve: async (_r, args, ctx) => deleteToolOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  testTool: t.field({
    type: ToolOutcomeRef,
    args: { id: t.arg.id({ required: true }), arguments: t.arg({ type: 'JSON', required: false }) },
    extensions: operationField(testToolOp),
    resolve: async (_r, args, ctx) => testToolOp.run(await ctx.service(), { id: String(args.id), body: { arguments: args.arguments ?? {} } }),
  }),
  linkTool: t.field({
    type: [ToolRef],
    args: { agentId: t.arg.id({ required: true }), toolId: t.arg.string({ required: true }) },
    extensions: operationField(linkToolOp),
    resolve: async (_r, args, ctx) => linkToolOp.run(await ctx.service(), { id: String(args.agentId), body: { toolId: args.toolId } }),
  }),
  unlinkTool: t.boolean({
    args: { agentId: t.arg.id({ required: true }), toolId: t.arg.string({ required: true }) },
    extensions: operationField(unlinkToolOp),
    resolve: async (_r, args, ctx) => unlinkToolOp.run(await ctx.service(), { id: String(args.agentId), toolId: args.toolId }),
  }),
}));
