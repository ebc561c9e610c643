/** The words of a search worth marking in a passage (three letters or more, without repeats). */
export function searchWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3);
  return [...new Set(words)];
}

/**
 * A passage cut into plain and marked pieces: every occurrence of one of `words` (case-insensitive,
 * the start of a word, so "refund" marks "Refunds") is marked.
 */
export function markWords(text: string, words: readonly string[]): { text: string; marked: boolean }[] {
  if (words.length === 0) return [{ text, marked: false }];
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(${escaped.join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const pieces: { text: string; marked: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) pieces.push({ text: text.slice(last, at), marked: false });
    pieces.push({ text: m[0], marked: true });
    last = at + m[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), marked: false });
  return pieces;
}

/** The next wait of a poll that backs off: 1 s, then ×1.5 each time, at most 8 s. */
export const nextPollDelay = (attempt: number): number => Math.min(8000, Math.round(1000 * 1.5 ** attempt));
