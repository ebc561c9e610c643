import { createRequire } from 'node:module';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import type { ChatMessage } from './provider.js';

/**
 * o200k_base token counts, with the ranks table of js-tiktoken and an encoder of our own.
 *
 * js-tiktoken's byte-pair merge rescans every pair after each merge: quadratic in the length of one
 * pre-tokenised piece, so one unbroken run of 10 000 letters (or spaces, or punctuation) held the event
 * loop for 8 s. This encoder gives the same tokens with a min-heap over adjacent pairs (O(n log n) per
 * piece) and memoises the pieces it has seen, which makes ordinary text several times faster too.
 * Special-token strings such as `<|endoftext|>` are ordinary text here: they come from users.
 *
 * The ranks table is 2 MB of source, so it is required on first use rather than imported: processes that
 * never count tokens never pay for it.
 */
interface Encoding {
  pattern: RegExp;
  /** Byte sequence (as a latin1 string: one char per byte) → rank. */
  ranks: Map<string, number>;
}

let encoding: Encoding | undefined;

function loadEncoding(): Encoding {
  if (encoding) return encoding;
  const table = createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE;
  const ranks = new Map<string, number>();
  for (const line of table.bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, offsetText, ...tokens] = line.split(' ');
    const offset = Number.parseInt(offsetText!, 10);
    for (let i = 0; i < tokens.length; i++) ranks.set(Buffer.from(tokens[i]!, 'base64').toString('latin1'), offset + i);
  }
  encoding = { pattern: new RegExp(table.pat_str, 'gu'), ranks };
  return encoding;
}

/**
 * Loads the rank table now (about half a second of CPU) rather than inside the first request that
 * counts tokens, where it would hold every other request: the server calls it before it listens.
 */
export function loadTokenizer(): void {
  loadEncoding();
}

let decoding: Map<number, string> | undefined;

/**
 * A piece longer than LONG_PIECE characters (a run of letters, spaces or punctuation with no break,
 * which natural text never has) is encoded in slices of that length. Exact for every piece up to that
 * length; past it the tokens can differ from tiktoken's near each cut, and the cost stays linear.
 */
export const LONG_PIECE = 128;

/** Memoised pieces: ordinary text repeats its words, so most pieces are found here. */
const PIECE_CACHE_MAX = 20_000;
const MAX_CACHED_PIECE = LONG_PIECE;
const pieceCache = new Map<string, number[]>();

/**
 * Tokens of one pre-tokenised piece (its UTF-8 bytes as a latin1 string): the lowest-rank adjacent pair
 * is merged first, the leftmost on ties, as tiktoken does. Pair ranks are kept between merges, so each
 * merge looks up two pairs; pieces are at most a slice long (see LONG_PIECE), so the scan stays short.
 */
function encodePiece(piece: string, ranks: Map<string, number>): number[] {
  const whole = ranks.get(piece);
  if (whole !== undefined) return [whole];
  const n = piece.length;
  // Part k spans starts[k]..starts[k + 1]; pairRank[k] is the rank of parts k and k + 1 merged.
  const starts: number[] = Array.from({ length: n + 1 }, (_, i) => i);
  const pairRank: number[] = [];
  for (let k = 0; k < n - 1; k++) pairRank.push(ranks.get(piece.slice(k, k + 2)) ?? Infinity);
  const rankAt = (k: number): number => (k + 2 < starts.length ? (ranks.get(piece.slice(starts[k]!, starts[k + 2]!)) ?? Infinity) : Infinity);
  while (pairRank.length > 0) {
    let min = Infinity;
    let at = -1;
    for (let k = 0; k < pairRank.length; k++) {
      if (pairRank[k]! < min) {
        min = pairRank[k]!;
        at = k;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    pairRank.splice(at, 1);
    if (at < pairRank.length) pairRank[at] = rankAt(at);
    if (at > 0) pairRank[at - 1] = rankAt(at - 1);
  }
  const out: number[] = [];
  for (let k = 0; k + 1 < starts.length; k++) {
    const token = ranks.get(piece.slice(starts[k]!, starts[k + 1]!));
    if (token !== undefined) out.push(token);
  }
  return out;
}

function tokensOfSlice(slice: string, ranks: Map<string, number>): number[] {
  const cached = pieceCache.get(slice);
  if (cached) return cached;
  const tokens = encodePiece(Buffer.from(slice, 'utf8').toString('latin1'), ranks);
  if (slice.length <= MAX_CACHED_PIECE) {
    if (pieceCache.size >= PIECE_CACHE_MAX) pieceCache.clear();
    pieceCache.set(slice, tokens);
  }
  return tokens;
}


/** The pre-tokenised pieces of `text`, a piece longer than LONG_PIECE cut in slices of that length. */
function* slicesOf(text: string, pattern: RegExp): Generator<string> {
  for (const match of text.matchAll(pattern)) {
    const piece = match[0];
    if (piece.length <= LONG_PIECE) {
      yield piece;
      continue;
    }
    for (let start = 0; start < piece.length; ) {
      let end = Math.min(piece.length, start + LONG_PIECE);
      // Never cut a surrogate pair.
      if (end < piece.length && (piece.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      yield piece.slice(start, end);
      start = end;
    }
  }
}

/** o200k_base tokens of `text`, special-token strings encoded as ordinary text. */
export function encodeText(text: string): number[] {
  const { pattern, ranks } = loadEncoding();
  const out: number[] = [];
  for (const slice of slicesOf(text, pattern)) for (const token of tokensOfSlice(slice, ranks)) out.push(token);
  return out;
}

export function decodeTokens(tokens: number[]): string {
  if (!decoding) {
    decoding = new Map();
    for (const [bytes, rank] of loadEncoding().ranks) decoding.set(rank, bytes);
  }
  const table = decoding;
  return Buffer.from(tokens.map((t) => table.get(t) ?? '').join(''), 'latin1').toString('utf8');
}

export function countTextTokens(text: string): number {
  if (!text) return 0;
  const { pattern, ranks } = loadEncoding();
  let total = 0;
  for (const slice of slicesOf(text, pattern)) total += tokensOfSlice(slice, ranks).length;
  return total;
}

/** Tokens of every message's content and tool calls (name and arguments), without framing overhead. */
export function countMessageTokens(messages: ChatMessage[]): number {
  let total = 0;
  for (const text of messageTexts(messages)) total += countTextTokens(text);
  return total;
}

function* messageTexts(messages: ChatMessage[]): Generator<string> {
  for (const m of messages) {
    yield m.content;
    for (const call of m.toolCalls ?? []) yield* [call.name, call.arguments];
  }
}

/** Work done between two yields to the event loop by the asynchronous counters. */
const SLICE_MS = 4;

/**
 * The same count as `countTextTokens`, giving the event loop back every few milliseconds: for the
 * texts a request brings (gateway prompts up to the body limit), so that counting a large one never
 * holds other requests. Worst case about 1 µs per byte of adversarial text, 0.1 µs of ordinary text.
 */
export async function countTextTokensAsync(...texts: string[]): Promise<number> {
  const { pattern, ranks } = loadEncoding();
  let total = 0;
  let slices = 0;
  let since = performance.now();
  for (const text of texts) {
    if (!text) continue;
    for (const slice of slicesOf(text, pattern)) {
      total += tokensOfSlice(slice, ranks).length;
      if (++slices % 16 === 0 && performance.now() - since > SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
  }
  return total;
}

export function countMessageTokensAsync(messages: ChatMessage[]): Promise<number> {
  return countTextTokensAsync(...messageTexts(messages));
}

/** The longest prefix of `text` holding at most `maxTokens` tokens. */
export function truncateToTokens(text: string, maxTokens: number): string {
  const tokens = encodeText(text);
  if (tokens.length <= maxTokens) return text;
  return decodeTokens(tokens.slice(0, Math.max(0, maxTokens))).replace(/\uFFFD+$/, '');
}
