import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { AgentConsoleFieldsSchema, AgentDtoSchema, CreateAgentSchema, UpdateAgentSchema } from './agents.schemas.js';
import { createAgent, deleteAgent, getAgent, listAgents, toAgentDto, updateAgent, updateAgentConsoleFields } from './agents.service.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { isPoste } from './agent.entity.js';
import { plainInput } from '../../graphql/plain-input.js';

export const AgentRef = objectFromZod('Agent', AgentDtoSchema, {
  description: 'A persona of the workspace (same fields as the REST Agent resource).',
});

builder.objectFields(AgentRef, (t) => ({
  isPoste: t.boolean({ resolve: (a) => isPoste(a) }),
}));

// Derived from the zod schemas the service parses with: a field SPEC requires is non-null, and the
// service still refuses a bad value with the same message as REST.
const CreateAgentInput = inputFromZod('CreateAgentInput', CreateAgentSchema);
const UpdateAgentInput = inputFromZod('UpdateAgentInput', UpdateAgentSchema);
const AgentConsoleFieldsInput = inputFromZod('AgentConsoleFieldsInput', AgentConsoleFieldsSchema);

/** GraphQL turns omitted input fields into absent keys and explicit nulls into null: same as JSON. */
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
    resolve: async (_r, args, ctx) => toAgentDto(await createAgent(await ctx.service(), plainInput(args.input))),
  }),
  updateAgent: t.field({
    type: AgentRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateAgentInput, required: true }) },
    resolve: async (_r, args, ctx) =>
      toAgentDto(await updateAgent(await ctx.service(), String(args.id), plainInput(args.input))),
  }),
  updateAgentConsoleFields: t.field({
    type: AgentRef,
    description:
      'Sets the console-only lists of an agent (expertise, outOfScope, checklist; collectionScope follows linkKnowledge). Signed-in people only: API-created agents keep them empty.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: AgentConsoleFieldsInput, required: true }) },
    extensions: operationNeeds({ scope: 'agents', write: true, person: true }),
    resolve: async (_r, args, ctx) =>
      toAgentDto(await updateAgentConsoleFields(await ctx.service(), String(args.id), plainInput(args.input))),
  }),
  deleteAgent: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteAgent(await ctx.service(), String(args.id));
      return true;
    },
  }),
}));
