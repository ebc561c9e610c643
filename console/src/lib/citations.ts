/** A message's text cut into plain runs and citation markers `[n]` (1-based passage refs). */
export type Piece = { kind: 'text'; text: string } | { kind: 'cite'; ref: number };

const CITATION = /\[(\d{1,3})\]/g;

/** Only refs that name a known passage become citations; any other bracketed number stays text. */
export function splitCitations(text: string, knownRefs: ReadonlySet<number>): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(CITATION)) {
    const ref = Number(m[1]);
    if (!knownRefs.has(ref)) continue;
    const at = m.index ?? 0;
    if (at > last) pieces.push({ kind: 'text', text: text.slice(last, at) });
    pieces.push({ kind: 'cite', ref });
    last = at + m[0].length;
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last) });
  return pieces;
}
