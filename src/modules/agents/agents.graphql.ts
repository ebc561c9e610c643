import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { AgentConsoleFieldsSchema, AgentDtoSchema, CreateAgentSchema, UpdateAgentSchema } from './agents.schemas.js';
import { operationField } from '../../graphql/root-fields.js';
import { createAgentOp, deleteAgentOp, getAgentOp, listAgentsOp, updateAgentConsoleFieldsOp, updateAgentOp } from './operations.js';
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
    extensions: operationField(listAgentsOp),
    resolve: async (_r, _a, ctx) => listAgentsOp.run(await ctx.service(), {}),
  }),
  agent: t.field({
    type: AgentRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getAgentOp),
    resolve: async (_r, args, ctx) => getAgentOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: AgentRef,
    args: { input: t.arg({ type: CreateAgentInput, required: true }) },
    extensions: operationField(createAgentOp),
    resolve: async (_r, args, ctx) => createAgentOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  updateAgent: t.field({
    type: AgentRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateAgentInput, required: true }) },
    extensions: operationField(updateAgentOp),
    resolve: async (_r, args, ctx) => updateAgentOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  updateAgentConsoleFields: t.field({
    type: AgentRef,
    description:
      'Sets the console-only lists of an agent (expertise, outOfScope, checklist; collectionScope follows linkKnowledge). Signed-in people only: API-created agents keep them empty.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: AgentConsoleFieldsInput, required: true }) },
    extensions: operationField(updateAgentConsoleFieldsOp),
    resolve: async (_r, args, ctx) => updateAgentConsoleFieldsOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  deleteAgent: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(deleteAgentOp),
    resolve: async (_r, args, ctx) => deleteAgentOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));
