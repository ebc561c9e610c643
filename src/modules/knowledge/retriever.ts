import type { KnowledgeRetriever } from '../chat/index.js';
import { agentScope, scopeOfLinks } from './knowledge.repository.js';
import { TOP_K } from './knowledge.schemas.js';
import { searchItems } from './query.service.js';

/**
 * The chat turn's reader: passages of the ready sources linked to the agent (directly or through a
 * collection), best first. An agent with nothing linked reads nothing. The turn has already checked
 * the caller's access to the agent; reading its linked knowledge is part of chatting with it.
 */
export const createKnowledgeRetriever = (): KnowledgeRetriever => ({
  async retrieve(ctx, { agentId, query, topK, links }) {
    const workspaceId = ctx.caller.workspace.id;
    const scope = links ? scopeOfLinks(links) : await agentScope(ctx.em, workspaceId, agentId);
    if (scope.sourceIds.length === 0 && scope.collectionIds.length === 0) return [];
    const k = Math.min(TOP_K.max, Math.max(TOP_K.min, Math.floor(topK)));
    return searchItems(ctx, { workspaceId, query, topK: k, scope });
  },
});
