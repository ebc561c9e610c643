/**
 * Ports of the chat turn, owned by chat (their consumer): the knowledge module implements
 * KnowledgeRetriever, the tools module ToolRunner, and the composition root (src/app/create-app.ts)
 * puts both on the app's dependencies.
 */
import type { ServiceContext } from '../../core/context.js';
import type { ToolDef } from '../models/index.js';

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

/** A link of the agent to a source or a collection (`agent_knowledge_link`), as the turn read it. */
export interface KnowledgeLinkRef {
  targetKind: string;
  targetId: string;
}

export interface KnowledgeRetriever {
  /**
   * Passages of the knowledge linked to the agent, best first, at most `topK`. `links`: the agent's links
   * as the caller already read them (the chat turn reads them with its other reads); absent, they are read.
   */
  retrieve(ctx: ServiceContext, opts: { agentId: string; query: string; topK: number; links?: readonly KnowledgeLinkRef[] }): Promise<KnowledgeUsedItem[]>;
}

export interface RunnableTool {
  def: ToolDef;
  run(args: unknown, signal?: AbortSignal): Promise<{ success: boolean; result: unknown }>;
}

export interface ToolRunner {
  /**
   * Active tools linked to the agent, restricted to `toolIds` when given (inactive tools never offered).
   * `linked`: the ids of the agent's linked tools in link order, as the caller already read them (the chat
   * turn reads them with its other reads; none linked, nothing is read); absent, the links are read.
   */
  toolsFor(ctx: ServiceContext, opts: { agentId: string; toolIds?: string[]; linked?: readonly string[] }): Promise<RunnableTool[]>;
}

declare module '../../core/deps.js' {
  interface Deps {
    /** Knowledge retrieval for chat turns (implemented by the knowledge module). */
    readonly knowledge: KnowledgeRetriever;
    /** Workspace tools for chat turns (implemented by the tools module). */
    readonly tools: ToolRunner;
  }
}
