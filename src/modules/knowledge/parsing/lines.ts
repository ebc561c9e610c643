const LIST_MARKER = /^(?:[-*•·▪–]\s|\d{1,3}[.)]\s|[a-z][.)]\s)/i;
const NUMBERED_HEADING = /^(?:\d{1,2}(?:\.\d{1,2})*\.?|[IVXLC]{1,6}\.|[A-Z]\.)\s+\p{Lu}/u;
const MINOR_WORDS = new Set([
  'a', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'or', 'the', 'to', 'with',
  'au', 'aux', 'de', 'des', 'du', 'en', 'et', 'la', 'le', 'les', 'ou', 'par', 'pour', 'sur', 'un', 'une',
]);

/**
 * Whether one line reads like a heading: at most 10 words and 80 characters, contains a letter,
 * does not end with sentence or list punctuation (. , ; : ! ?), and is either numbered
 * (`2.1 Scope`, `IV. Terms`), all capitals (`PRICING`), or Title Case (every word of four
 * letters or more starts with a capital, and so does the first word).
 * Used for plain text and PDF only, where no markup says what a heading is; it misfires on short
 * capitalised body lines (a name alone on a line), which is accepted for its simplicity.
 */
export function looksLikeHeading(line: string): boolean {
  const text = line.trim();
  if (text.length === 0 || text.length > 80 || !/\p{L}/u.test(text)) return false;
  if (/[.,;:!?…]$/.test(text)) return false;
  const words = text.split(/\s+/);
  if (words.length > 10) return false;
  if (NUMBERED_HEADING.test(text)) return true;
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()) return true;
  if (!/^\p{Lu}/u.test(words[0].replace(/^[^\p{L}\p{N}]+/u, ''))) return false;
  return words.every((word, i) => {
    const bare = word.replace(/^[^\p{L}\p{N}]+/u, '');
    if (i === 0 || !/^\p{L}/u.test(bare) || MINOR_WORDS.has(bare.toLowerCase())) return true;
    return bare.length < 4 || /^\p{Lu}/u.test(bare);
  });
}

/**
 * Joins hard-wrapped lines back into paragraphs. A line break is kept when the previous line is
 * short (under 40 characters: key-value lines, list items, addresses) or the next line starts with
 * a list marker; otherwise the lines are joined with a space, and a word hyphenated across the
 * break (`informa-` / `tion`) is rejoined without its hyphen.
 */
export function unwrapLines(lines: string[]): string {
  let out = '';
  let previous = '';
  for (const raw of lines) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (!line) continue;
    if (!out) out = line;
    else if (previous.length < 40 || LIST_MARKER.test(line)) out += `\n${line}`;
    else if (/\p{L}-$/u.test(previous) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else out += ` ${line}`;
    previous = line;
  }
  return out;
}
