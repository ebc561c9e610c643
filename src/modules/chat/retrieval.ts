import type { ServiceContext } from '../../core/context.js';
import { foldText } from '../models/index.js';
import { CHAT_LIMITS, type KnowledgeUsed } from './chat.schemas.js';
import type { KnowledgeLinkRef, KnowledgeUsedItem } from './turn-extensions.js';

/**
 * A question asking for a list (docs/chat.md, "Retrieval"): it says list/enumerate/which are/all the,
 * asks for steps, options or examples, or for a number of items ("top 5", "3 ways").
 */
const LIST_PATTERNS = [
  /\b(?:list|lists|enumerate|itemi[sz]e|bullet points?)\b/,
  /\b(?:what|which) (?:are|were) (?:the|all|some)\b/,
  /\ball (?:the|of the)\b/,
  /\b(?:steps|options|examples|alternatives|requirements|reasons|differences|types|kinds)\b/,
  /\b(?:top|first|main) \d+\b/,
  /\b\d+ (?:ways|things|reasons|steps|examples|options|ideas|tips)\b/,
  /\b(?:liste|listez|enumere|enumerez|quels sont|quelles sont|tous les|toutes les|etapes|exemples)\b/,
];

export function isListQuestion(message: string): boolean {
  const text = foldText(message);
  return LIST_PATTERNS.some((p) => p.test(text));
}

export function topKFor(message: string, requested: number | undefined): number {
  if (requested !== undefined) return requested;
  return isListQuestion(message) ? CHAT_LIMITS.topK.list : CHAT_LIMITS.topK.default;
}

/** Passages from the agent's linked knowledge, renumbered [1]..[n] in retrieval order. */
export async function retrievePassages(
  ctx: ServiceContext,
  opts: { agentId: string; query: string; topK: number; links?: readonly KnowledgeLinkRef[] },
): Promise<KnowledgeUsedItem[]> {
  const items = await ctx.app.knowledge.retrieve(ctx, opts);
  return items.slice(0, opts.topK).map((item, i) => ({ ...item, ref: i + 1 }));
}

/** The public form of a passage: its full text never leaves the service. */
export function knowledgeUsedOf(items: KnowledgeUsedItem[]): KnowledgeUsed[] {
  return items.map(({ text: _text, ...used }) => ({
    ref: used.ref,
    sourceId: used.sourceId,
    sourceName: used.sourceName,
    section: used.section,
    page: used.page,
    chunkPreview: used.chunkPreview,
    similarity: used.similarity,
    chunkId: used.chunkId,
    collectionId: used.collectionId,
    dossierName: used.dossierName,
  }));
}
