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

/** The fragment a citation link carries once the text is Markdown (`#cite-2`), and its reader. */
export const citeHref = (ref: number): string => `#cite-${ref}`;
export function citeRefOf(href: string | undefined): number | null {
  const m = /#(?:user-content-)?cite-(\d{1,3})$/.exec(href ?? '');
  return m ? Number(m[1]) : null;
}

/** The text with each known `[n]` made a Markdown link to its passage (`[\[n\]](#cite-n)`), the rest untouched. */
export function linkCitations(text: string, knownRefs: ReadonlySet<number>): string {
  return splitCitations(text, knownRefs)
    .map((p) => (p.kind === 'text' ? p.text : `[\\[${p.ref}\\]](${citeHref(p.ref)})`))
    .join('');
}
