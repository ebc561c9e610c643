/**
 * Table columns (issue 26, sixth round): a column's header names what the values under it are of (`| Specification |
 * FL-25 | FL-30 |`, `| Prestation | Prix HT | Prix TTC |`, `| Sum insured or limit | Excess |`). The cells of a row are
 * read together, so every amount of a row has the row's words; which of them a claim means is told by their headers.
 */

/** A column's header cell: its folded words and their stems. */
export interface Column {
  words: Set<string>;
  stems: Set<string>;
}

/** What a claim names that a header may hold: its names and codes (each by all its folded words), its acronyms and its stems. */
export interface ClaimTerms {
  entities: string[][];
  acronyms: string[];
  stems: string[];
}

/** How many of the claim's terms a column's header holds. */
function held(column: Column, terms: ClaimTerms): number {
  let n = 0;
  for (const e of terms.entities) if (e.every((w) => column.words.has(w))) n++;
  for (const a of terms.acronyms) if (column.words.has(a)) n++;
  for (const s of terms.stems) if (column.stems.has(s)) n++;
  return n;
}

/**
 * The facts of a table row a claim may mean: where the headers of their columns hold the claim's terms unequally, only
 * those whose header holds the most (`The FL-25 has a maximum lift height of 4.5 metres` reads the FL-25 column, `285 €
 * HT` the `Prix HT` one). Facts of a sentence that is not a row, or headers holding none of the claim's terms, are kept.
 */
export function keyedByColumn<F extends { column?: Column }>(facts: F[], terms: ClaimTerms): F[] {
  if (facts.length < 2 || facts.some((f) => !f.column)) return facts;
  const counts = facts.map((f) => held(f.column!, terms));
  const most = Math.max(...counts);
  if (most === 0 || counts.every((c) => c === most)) return facts;
  return facts.filter((_, i) => counts[i] === most);
}
