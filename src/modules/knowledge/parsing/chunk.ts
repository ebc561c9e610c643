import { splitSentences } from './sentences.js';
import type { ParsedDocument } from './types.js';

export interface Chunk {
  /** 0-based position in the document. */
  ordinal: number;
  text: string;
  section: string;
  page: number;
  tokenEstimate: number;
}

export interface ChunkOptions {
  /** Upper bound of a chunk's token estimate (a single word longer than it is the only overflow). Default 350. */
  targetTokens?: number;
  /** Sentences of the previous chunk repeated at the start of the next when a long block is split. Default 1. */
  overlapSentences?: number;
}

export const DEFAULT_TARGET_TOKENS = 350;
const DEFAULT_OVERLAP_SENTENCES = 1;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * A cheap token estimate, per whitespace-separated word: 1.3, or a fifth of its length when longer
 * (long words, URLs, identifiers), or one per CJK character. It overestimates English prose by about
 * 10% against o200k, which is the safe side for sizing chunks; exact counts for model budgets come
 * from the models tokenizer.
 */
export function estimateTokens(text: string): number {
  let tenths = 0;
  for (const word of text.split(/\s+/)) {
    if (word) tenths += Math.max(13, word.length * 2, (word.match(CJK)?.length ?? 0) * 10);
  }
  return Math.ceil(tenths / 10);
}

/** A piece to pack: a whole block, a sentence of a long block, or a word run of a very long sentence. */
interface Unit {
  text: string;
  tokens: number;
  /** Separator from the previous unit: a new block, a new line in the block, or the same line. */
  joiner: '\n\n' | '\n' | ' ';
  /** Index of the block in its run: overlap only repeats units of the block being cut. */
  block: number;
}

/**
 * Cuts a parsed document into chunks for retrieval. Consecutive blocks sharing section and page
 * form a run, and a chunk never leaves its run, so every chunk has exactly one section and page.
 * Inside a run, blocks are packed greedily up to `targetTokens`: small blocks are merged, a block
 * that fits is never cut, a longer block is cut on sentence boundaries (a line break also ends a
 * sentence), and a sentence longer than the target on word boundaries. When a cut falls inside a
 * block, the next chunk starts with the last `overlapSentences` sentences of that block already
 * placed, if they leave room for the next one. Deterministic: same document and options, same chunks.
 */
export function chunkDocument(doc: ParsedDocument, opts: ChunkOptions = {}): Chunk[] {
  const target = Math.max(1, Math.floor(opts.targetTokens ?? DEFAULT_TARGET_TOKENS));
  const overlap = Math.max(0, Math.floor(opts.overlapSentences ?? DEFAULT_OVERLAP_SENTENCES));
  const runs: { section: string; page: number; units: Unit[] }[] = [];

  for (const block of doc.blocks) {
    const text = block.text.trim();
    if (!text) continue;
    let run = runs[runs.length - 1];
    if (!run || run.section !== block.section || run.page !== block.page) {
      run = { section: block.section, page: block.page, units: [] };
      runs.push(run);
    }
    const index = run.units.length === 0 ? 0 : run.units[run.units.length - 1].block + 1;
    run.units.push(...blockUnits(text, index, target));
  }

  const chunks: Chunk[] = [];
  for (const run of runs) {
    for (const text of pack(run.units, target, overlap)) {
      chunks.push({ ordinal: chunks.length, text, section: run.section, page: run.page, tokenEstimate: estimateTokens(text) });
    }
  }
  return chunks;
}

function blockUnits(text: string, block: number, target: number): Unit[] {
  const tokens = estimateTokens(text);
  if (tokens <= target) return [{ text, tokens, joiner: '\n\n', block }];
  const units: Unit[] = [];
  text.split('\n').forEach((line, lineIndex) => {
    splitSentences(line).forEach((sentence, sentenceIndex) => {
      const joiner = sentenceIndex > 0 ? ' ' : lineIndex > 0 ? '\n' : '\n\n';
      wordRuns(sentence, target).forEach((piece, pieceIndex) => {
        units.push({ text: piece, tokens: estimateTokens(piece), joiner: pieceIndex > 0 ? ' ' : joiner, block });
      });
    });
  });
  return units;
}

/** Cuts a sentence longer than the target into runs of words that fit. */
function wordRuns(sentence: string, target: number): string[] {
  if (estimateTokens(sentence) <= target) return [sentence];
  const runs: string[] = [];
  let current = '';
  for (const word of sentence.split(/\s+/)) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && estimateTokens(candidate) > target) {
      runs.push(current);
      current = word;
    } else current = candidate;
  }
  if (current) runs.push(current);
  return runs;
}

function pack(units: Unit[], target: number, overlap: number): string[] {
  const out: string[] = [];
  let current: Unit[] = [];
  let tokens = 0;

  for (const unit of units) {
    if (current.length > 0 && tokens + unit.tokens > target) {
      out.push(render(current));
      const seed = overlap > 0 ? current.filter((u) => u.block === unit.block).slice(-overlap) : [];
      const seedTokens = sum(seed);
      const fits = seed.length > 0 && seedTokens + unit.tokens <= target;
      current = fits ? seed : [];
      tokens = fits ? seedTokens : 0;
    }
    current.push(unit);
    tokens += unit.tokens;
  }
  if (current.length > 0) out.push(render(current));
  return out;
}

function render(units: Unit[]): string {
  return units.map((u, i) => (i === 0 ? u.text : u.joiner + u.text)).join('');
}

function sum(units: Unit[]): number {
  return units.reduce((total, u) => total + u.tokens, 0);
}
