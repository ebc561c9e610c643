import type { ContextBlock, ContextUsed } from './chat.schemas.js';

/** A context block as the model reads it: for this call only, never stored. */
export interface RenderedBlock {
  heading: string;
  text: string;
  high: boolean;
  source: ContextBlock;
}

const PRIORITY_RANK = { high: 0, medium: 1, low: 2 } as const;

/**
 * SPEC, chat request `context`: high priority first (then medium, then low, keeping the caller's
 * order within a priority), `label` replaces `category` as heading, object data as indented JSON.
 */
export function renderContextBlocks(blocks: ContextBlock[] | undefined): RenderedBlock[] {
  return (blocks ?? [])
    .map((block, order) => ({ block, order }))
    .sort((a, b) => PRIORITY_RANK[a.block.priority] - PRIORITY_RANK[b.block.priority] || a.order - b.order)
    .map(({ block }) => ({
      heading: block.label?.trim() || block.category,
      text: typeof block.data === 'string' ? block.data : JSON.stringify(block.data, null, 2),
      high: block.priority === 'high',
      source: block,
    }));
}

/** The prompt section; high blocks are flagged so the model weighs them first. */
export function contextSection(blocks: RenderedBlock[]): string | undefined {
  if (blocks.length === 0) return undefined;
  const parts = blocks.map((b) => `### ${b.high ? '[HIGH PRIORITY] ' : ''}${b.heading}\n${b.text}`);
  return `Context provided with this message (for this answer only):\n\n${parts.join('\n\n')}`;
}

export function contextUsedBlocks(blocks: RenderedBlock[]): ContextUsed['blocks'] {
  return blocks.map((b) => ({ category: b.source.category, label: b.source.label ?? null, priority: b.source.priority }));
}
