import { builder } from '../../graphql/builder.js';
import { AgentRef } from '../agents/agents.graphql.js';
import type { ToolOutcome } from './tool-call.js';
import type { ToolDto } from './tools.schemas.js';
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

const ToolHeaderRef = builder.objectRef<ToolDto['headers'][number]>('ToolHeader').implement({
  description: 'A request header of a tool; a secret header never shows its value.',
  fields: (t) => ({
    name: t.exposeString('name'),
    secret: t.exposeBoolean('secret'),
    value: t.exposeString('value', { nullable: true }),
  }),
});

export const ToolRef = builder.objectRef<ToolDto>('Tool').implement({
  description: 'A workspace HTTP tool offered to linked agents as a function (same fields as the REST resource).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    inputSchema: t.field({ type: 'JSON', resolve: (tool) => tool.inputSchema }),
    method: t.exposeString('method'),
    urlTemplate: t.exposeString('urlTemplate'),
    headers: t.field({ type: [ToolHeaderRef], resolve: (tool) => tool.headers }),
    timeoutMs: t.exposeInt('timeoutMs'),
    isActive: t.exposeBoolean('isActive'),
    userId: t.exposeString('userId'),
    createdAt: t.exposeString('createdAt'),
    updatedAt: t.exposeString('updatedAt'),
  }),
});

builder.objectField(AgentRef, 'tools', (t) =>
  t.loadableList({
    type: ToolRef,
    description: 'Tools linked to the agent, in link order (batched across agents).',
    load: async (ids: string[], ctx) => (await loadToolsByAgent(await ctx.service(), ids)).map((list) => list.map(toToolDto)),
    resolve: (agent) => agent.id,
  }),
);

const ToolOutcomeRef = builder.objectRef<ToolOutcome>('ToolRunResult').implement({
  description: 'Outcome of one tool call: success is false for any failure, with result.error saying why.',
  fields: (t) => ({
    success: t.exposeBoolean('success'),
    result: t.field({ type: 'JSON', nullable: true, resolve: (o) => o.result }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

// Nullable inputs: the service's zod schemas validate them, so GraphQL and REST refuse alike.
const ToolHeaderInput = builder.inputType('ToolHeaderInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    value: t.string({ required: false, description: 'Omit on a secret header to keep its stored value' }),
    secret: t.boolean({ required: false }),
  }),
});

const ToolInput = builder.inputType('ToolInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    description: t.string({ required: false }),
    inputSchema: t.field({ type: 'JSON', required: false }),
    method: t.string({ required: false }),
    urlTemplate: t.string({ required: false }),
    headers: t.field({ type: [ToolHeaderInput], required: false }),
    timeoutMs: t.int({ required: false }),
    isActive: t.boolean({ required: false }),
  }),
});

const plain = (input: object): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...input };
  if (Array.isArray(out.headers)) out.headers = out.headers.map((h: object) => ({ ...h }));
  return out;
};

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
    resolve: async (_r, args, ctx) => toToolDto(await createTool(await ctx.service(), plain(args.input) as never)),
  }),
  updateTool: t.field({
    type: ToolRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ToolInput, required: true }) },
    resolve: async (_r, args, ctx) => toToolDto(await updateTool(await ctx.service(), String(args.id), plain(args.input) as never)),
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
