/**
 * Seams through which other modules plug into the chat turn. The knowledge module implements
 * KnowledgeRetriever, the tools module ToolRunner; both are optional on AppServices, and a turn
 * without them simply reads no documents and calls no tools.
 */
import type { ServiceContext } from '../../context.js';
import type { ToolDef } from '../models/provider.js';

/** One retrieved passage, as reported in `knowledgeUsed` (SPEC, Chat turn result) plus its full text. */
export interface KnowledgeUsedItem {
  /** Citation number `[n]`; the turn renumbers passages 1..n in retrieval order. */
  ref: number;
  sourceId: string;
  sourceName: string;
  section: string;
  page: number;
  chunkPreview: string;
  similarity: number;
  chunkId: string;
  collectionId: string | null;
  dossierName: string | null;
  /** Full passage for the prompt; stripped from every response. */
  text: string;
}

export interface KnowledgeRetriever {
  /** Passages of the knowledge linked to the agent, best first, at most `topK`. */
  retrieve(ctx: ServiceContext, opts: { agentId: string; query: string; topK: number }): Promise<KnowledgeUsedItem[]>;
}

export interface RunnableTool {
  def: ToolDef;
  run(args: unknown, signal?: AbortSignal): Promise<{ success: boolean; result: unknown }>;
}

export interface ToolRunner {
  /** Active tools linked to the agent, restricted to `toolIds` when given (inactive tools never offered). */
  toolsFor(ctx: ServiceContext, opts: { agentId: string; toolIds?: string[] }): Promise<RunnableTool[]>;
}
