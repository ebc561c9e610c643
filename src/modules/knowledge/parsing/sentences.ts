/**
 * A sentence ends at `.`, `!`, `?` or `…` (optionally followed by closing quotes or brackets)
 * when whitespace and then a capital letter, a digit or an opening quote follow. Lowercase after a
 * period (`e.g. this`) and decimals (`3.5`) do not split, nor do common abbreviations and initials
 * (`Dec. 1st`, `Dr. Smith`, `M. Dupont`, `J. F. Kennedy`); `etc.` does, being usually final.
 * French spacing before `?` (`coûte ? Oui`) splits as well.
 */
const ABBREVIATION = String.raw`(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|No|Nr|Art|Fig|Inc|Ltd|Co|vs|art|fig|pp|p|Mme|Mlle|Me|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|\p{Lu})`;
const SENTENCE_BREAK = new RegExp(
  String.raw`(?<=[.!?…]["'»”’)\]]*)(?<!(?:^|[^\p{L}])${ABBREVIATION}\.)\s+(?=["'«“‘(\[¿¡]*[\p{Lu}\p{N}])`,
  'u',
);

/** Splits text into sentences; a line break always ends a sentence (lists, table rows, key-value lines). */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const sentence of line.split(SENTENCE_BREAK)) {
      const clean = sentence.trim();
      if (clean) out.push(clean);
    }
  }
  return out;
}

/** Lowercase, accents stripped (NFKD, combining marks removed), typographic apostrophes made plain, whitespace collapsed. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
