import { builder } from '../../graphql/builder.js';
import type { AgentDto } from './agents.schemas.js';
import { createAgent, deleteAgent, getAgent, listAgents, toAgentDto, updateAgent } from './agents.service.js';
import { isPoste } from './agent.entity.js';

export const AgentRef = builder.objectRef<AgentDto>('Agent').implement({
  description: 'A persona of the workspace (same fields as the REST Agent resource).',
  fields: (t) => ({
    id: t.exposeID('id'),
    userId: t.exposeString('userId'),
    workspaceId: t.exposeString('workspaceId'),
    name: t.exposeString('name'),
    role: t.exposeString('role'),
    personality: t.exposeString('personality'),
    mission: t.exposeString('mission'),
    decisionStyle: t.exposeString('decisionStyle'),
    systemPrompt: t.exposeString('systemPrompt'),
    isDevilsAdvocate: t.exposeBoolean('isDevilsAdvocate'),
    expertise: t.exposeStringList('expertise'),
    outOfScope: t.exposeStringList('outOfScope'),
    collectionScope: t.exposeStringList('collectionScope'),
    checklist: t.exposeStringList('checklist'),
    isShared: t.exposeBoolean('isShared'),
    createdAt: t.exposeString('createdAt'),
    isPoste: t.boolean({ resolve: (a) => isPoste(a) }),
  }),
});

// Inputs are nullable on purpose: the service's zod schema validates them, so GraphQL and REST
// reject the same input with the same message.
const CreateAgentInput = builder.inputType('CreateAgentInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    role: t.string({ required: false }),
    personality: t.string({ required: false }),
    mission: t.string({ required: false }),
    decisionStyle: t.string({ required: false }),
    systemPrompt: t.string({ required: false }),
    isDevilsAdvocate: t.boolean({ required: false }),
  }),
});

const UpdateAgentInput = builder.inputType('UpdateAgentInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    role: t.string({ required: false }),
    personality: t.string({ required: false }),
    mission: t.string({ required: false }),
    decisionStyle: t.string({ required: false }),
    systemPrompt: t.string({ required: false }),
    isDevilsAdvocate: t.boolean({ required: false }),
  }),
});

/** GraphQL turns omitted input fields into absent keys and explicit nulls into null: same as JSON. */
const plain = (input: object): Record<string, unknown> => ({ ...input });

builder.queryFields((t) => ({
  agents: t.field({
    type: [AgentRef],
    description: 'Agents of the workspace, oldest first.',
    resolve: async (_r, _a, ctx) => (await listAgents(await ctx.service())).map(toAgentDto),
  }),
  agent: t.field({
    type: AgentRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => toAgentDto(await getAgent(await ctx.service(), String(args.id))),
  }),
}));

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: AgentRef,
    args: { input: t.arg({ type: CreateAgentInput, required: true }) },
    resolve: async (_r, args, ctx) => toAgentDto(await createAgent(await ctx.service(), plain(args.input) as never)),
  }),
  updateAgent: t.field({
    type: AgentRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateAgentInput, required: true }) },
    resolve: async (_r, args, ctx) =>
      toAgentDto(await updateAgent(await ctx.service(), String(args.id), plain(args.input) as never)),
  }),
  deleteAgent: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteAgent(await ctx.service(), String(args.id));
      return true;
    },
  }),
}));
