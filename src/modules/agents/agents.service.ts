import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { Agent, AgentMemory } from './agent.entity.js';
import {
  AgentConsoleFieldsSchema,
  CreateAgentSchema,
  PERSONA_FIELDS,
  UpdateAgentSchema,
  type AgentDto,
} from './agents.schemas.js';

export function toAgentDto(a: Agent): AgentDto {
  return {
    id: a.id,
    userId: a.userId,
    workspaceId: a.workspaceId,
    name: a.name,
    role: a.role,
    personality: a.personality,
    mission: a.mission,
    decisionStyle: a.decisionStyle,
    systemPrompt: a.systemPrompt,
    isDevilsAdvocate: a.isDevilsAdvocate,
    expertise: a.expertise ?? [],
    outOfScope: a.outOfScope ?? [],
    collectionScope: a.collectionScope ?? [],
    checklist: a.checklist ?? [],
    isShared: a.isShared,
    createdAt: a.createdAt.toISOString(),
  };
}

export const agentNotFound = (id: string) => errors.notFound('agent', id);

/** Workspace-scoped lookup; another workspace's agent is indistinguishable from a missing one. */
export async function findAgent(ctx: ServiceContext, id: string): Promise<Agent> {
  // No stored id holds a NUL character (PostgreSQL refuses it in a query parameter).
  if (id.includes('\u0000')) throw agentNotFound(id);
  const agent = await ctx.em.findOne(Agent, { id, workspaceId: ctx.caller.workspace.id });
  if (!agent) throw agentNotFound(id);
  return agent;
}

/** Every agent of the caller's workspace, oldest first (postes included). */
export async function loadWorkspaceAgents(ctx: ServiceContext): Promise<Agent[]> {
  return ctx.em.find(Agent, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function listAgents(ctx: ServiceContext): Promise<Agent[]> {
  return loadWorkspaceAgents(ctx);
}

export async function getAgent(ctx: ServiceContext, id: string): Promise<Agent> {
  return findAgent(ctx, id);
}

export async function createAgent(ctx: ServiceContext, input: unknown): Promise<Agent> {
  const data = CreateAgentSchema.parse(input ?? {});
  const now = ctx.clock.now();
  const agent = ctx.em.create(Agent, {
    id: newId('agt'),
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    ...data,
    expertise: [],
    outOfScope: [],
    collectionScope: [],
    checklist: [],
    isShared: false,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return agent;
}

export async function updateAgent(ctx: ServiceContext, id: string, input: unknown): Promise<Agent> {
  const data = UpdateAgentSchema.parse(input ?? {});
  const agent = await findAgent(ctx, id);
  for (const field of PERSONA_FIELDS) {
    const value = data[field];
    if (value !== undefined && value !== null) agent[field] = value;
  }
  if (data.isDevilsAdvocate !== undefined && data.isDevilsAdvocate !== null) agent.isDevilsAdvocate = data.isDevilsAdvocate;
  agent.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  return agent;
}

/** Sets the console-only lists of an agent (the console's agent form; GraphQL, signed-in people only). */
export async function updateAgentConsoleFields(ctx: ServiceContext, id: string, input: unknown): Promise<Agent> {
  const data = AgentConsoleFieldsSchema.parse(input ?? {});
  const agent = await findAgent(ctx, id);
  for (const field of ['expertise', 'outOfScope', 'checklist'] as const) {
    const value = data[field];
    if (value !== undefined && value !== null) agent[field] = [...new Set(value)];
  }
  agent.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  return agent;
}

/** Deletes the agent and all its memories; sessions it took part in are kept. */
export async function deleteAgent(ctx: ServiceContext, id: string): Promise<void> {
  const agent = await findAgent(ctx, id);
  await ctx.em.transactional(async (em) => {
    await em.nativeDelete(AgentMemory, { workspaceId: agent.workspaceId, agentId: agent.id });
    await em.nativeDelete(Agent, { id: agent.id, workspaceId: agent.workspaceId });
  });
}
