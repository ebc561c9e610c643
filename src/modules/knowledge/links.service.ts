/** What an agent reads: its links to sources and collections, mirrored in its `collectionScope`. */
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { Agent } from '../agents/index.js';
import { findAgent } from '../agents/index.js';
import { AgentKnowledgeLink, KnowledgeSource } from './knowledge.entity.js';
import { findCollection, impossibleId, unknownCollection } from './knowledge.lookup.js';
import { LinkKnowledgeSchema, type AgentKnowledgeDto } from './knowledge.schemas.js';

/** Recomputes `collectionScope` (linked ids, in link order) of the given agents from the link table. */
async function syncCollectionScope(em: ServiceContext['em'], workspaceId: string, agentIds: string[], now: Date): Promise<void> {
  for (const agentId of new Set(agentIds)) {
    const links = await em.find(AgentKnowledgeLink, { workspaceId, agentId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    await em.nativeUpdate(Agent, { id: agentId, workspaceId }, { collectionScope: links.map((l) => l.targetId), updatedAt: now });
  }
}

/** Drops every agent link to the given sources or collections (their deletion), in `em`'s transaction. */
export async function removeLinksTo(em: ServiceContext['em'], workspaceId: string, targetIds: string[], now: Date): Promise<void> {
  const links = await em.find(AgentKnowledgeLink, { workspaceId, targetId: { $in: targetIds } });
  if (links.length === 0) return;
  await em.nativeDelete(AgentKnowledgeLink, { workspaceId, targetId: { $in: targetIds } });
  await syncCollectionScope(em, workspaceId, links.map((l) => l.agentId), now);
}

async function agentKnowledge(ctx: ServiceContext, agent: Agent): Promise<AgentKnowledgeDto> {
  const links = await ctx.em.find(AgentKnowledgeLink, { workspaceId: agent.workspaceId, agentId: agent.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return {
    agentId: agent.id,
    sourceIds: links.filter((l) => l.targetKind === 'source').map((l) => l.targetId),
    collectionIds: links.filter((l) => l.targetKind === 'collection').map((l) => l.targetId),
    collectionScope: links.map((l) => l.targetId),
  };
}

export async function getAgentKnowledge(ctx: ServiceContext, agentId: string): Promise<AgentKnowledgeDto> {
  return agentKnowledge(ctx, await findAgent(ctx, agentId));
}

/** Links a source or a collection to an agent (idempotent); its turns then read it. */
export async function linkKnowledge(ctx: ServiceContext, agentId: string, input: unknown): Promise<AgentKnowledgeDto> {
  const data = LinkKnowledgeSchema.parse(input ?? {});
  const agent = await findAgent(ctx, agentId);
  const ws = ctx.caller.workspace.id;
  let target: { kind: 'source' | 'collection'; id: string };
  if (data.collectionId) {
    if (!(await findCollection(ctx, data.collectionId))) throw unknownCollection();
    target = { kind: 'collection', id: data.collectionId };
  } else {
    const id = data.sourceId as string;
    if (!(await ctx.em.findOne(KnowledgeSource, { id, workspaceId: ws }))) {
      throw errors.validation('sourceId', 'Knowledge source not found');
    }
    target = { kind: 'source', id };
  }
  const now = ctx.clock.now();
  await ctx.em.transactional(async (tx) => {
    const existing = await tx.findOne(AgentKnowledgeLink, { workspaceId: ws, agentId: agent.id, targetId: target.id });
    if (existing) return;
    tx.create(AgentKnowledgeLink, { id: newId('klnk'), workspaceId: ws, agentId: agent.id, targetKind: target.kind, targetId: target.id, createdAt: now });
    await tx.flush();
    await syncCollectionScope(tx, ws, [agent.id], now);
  });
  return agentKnowledge(ctx, agent);
}

/** Removes the link to a source or collection; 404 when the agent has no such link. */
export async function unlinkKnowledge(ctx: ServiceContext, agentId: string, targetId: string): Promise<AgentKnowledgeDto> {
  const agent = await findAgent(ctx, agentId);
  const ws = ctx.caller.workspace.id;
  if (impossibleId(targetId)) throw errors.notFound('knowledgeLink', targetId);
  const removed = await ctx.em.transactional(async (tx) => {
    const n = await tx.nativeDelete(AgentKnowledgeLink, { workspaceId: ws, agentId: agent.id, targetId });
    if (n > 0) await syncCollectionScope(tx, ws, [agent.id], ctx.clock.now());
    return n;
  });
  if (removed === 0) throw errors.notFound('knowledgeLink', targetId);
  return agentKnowledge(ctx, agent);
}
