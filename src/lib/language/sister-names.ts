/**
 * A sister of a name (seventeenth round of issue 26, lnear): a sentence naming a thing whose name opens as the
 * question's and goes on otherwise (*Whitcombe House* for *Whitcombe Annex*, *Bank of Ireland* for *Bank of England*,
 * *Hôtel Les Pins* for *Hôtel Les Tilleuls*), a table cell holding the name's opening alone (*Brightwater Grand* for the
 * *Brightwater Grand Plus*), or the common noun the question writes before its name followed by another name (*la formule
 * Sérénité* for *la formule Essentielle*) is about the other one, unless it names the question's too.
 */

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

/** Function words a name may hold or open on (`the`, `les`, `of`): they never make two names kin on their own. */
const NAME_FUNCTION_WORDS = new Set('the a an of and for at on in le la les l de du des d et en au aux sur'.split(' '));

/**
 * Words before a name that are no common noun of its kind: prepositions, verbs of asking, determiners (*with*, *chez*,
 * *contact*). Only a noun (*formule*, *résidence*, *hotel*) makes another name after it a sister.
 */
const NOT_LEADS = new Set(
  'with from into onto about after before between during under over than that this these those their there where which what when does will would could should must have been being make made give take pour dans avec chez entre sous vers sans selon apres avant depuis pendant quel quelle quels quelles comment combien ont sont etait faut peut doit cette entre contact contacter called named nomme appele'.split(' '),
);

/** A question's name: its words, folded, function words kept (`bank of england`), and the common noun written before it. */
export interface NameRun {
  words: string[];
  lead?: string;
}

/**
 * The question's names: each name of several words (going on over the capitalised words written right after it,
 * `Harlow Lodge` where the tagger reads `Harlow` alone), and each name after a common noun of the question (`formule`).
 */
export function nameWordsOf(names: { text: string; start: number; end: number }[], question: string): NameRun[] {
  const out: NameRun[] = [];
  for (const n of names) {
    const after = /^(?:[ \t]+\p{Lu}[\p{L}\p{N}]*)*/u.exec(question.slice(n.end))?.[0] ?? '';
    const words = fold(`${n.text}${after}`).match(/[\p{L}\p{N}]+/gu) ?? [];
    const before = /(\p{Ll}+)[ \t]+$/u.exec(question.slice(0, n.start))?.[1];
    const lead = before && before.length >= 4 && !NOT_LEADS.has(fold(before)) && !NAME_FUNCTION_WORDS.has(fold(before)) ? fold(before) : undefined;
    if (words.filter((w) => !NAME_FUNCTION_WORDS.has(w)).length >= 2 || (lead && words.length > 0)) out.push({ words, ...(lead ? { lead } : {}) });
  }
  return out;
}

interface Token {
  word: string;
  upper: boolean;
  start: number;
  end: number;
}

/** Whether the sentence names a sister of one of the question's names (see the module comment). */
export function namesSister(names: NameRun[], sentence: string): boolean {
  if (names.length === 0) return false;
  const tokens: Token[] = [...sentence.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({
    word: fold(m[0]),
    upper: /^\p{Lu}/u.test(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  }));
  const said = ` ${tokens.map((t) => t.word).join(' ')} `;
  const joined = (a: Token, b: Token) => /^[ \t]+$/.test(sentence.slice(a.end, b.start));
  const cells = sentence.includes('|') ? sentence.split('|').map((c) => ` ${(fold(c).match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')} `) : [];
  return names.some(({ words: name, lead }) => {
    if (said.includes(` ${name.join(' ')} `)) return false;
    const several = name.filter((w) => !NAME_FUNCTION_WORDS.has(w)).length >= 2;
    // A table cell holding the name's opening alone (`Brightwater Grand` for the Grand Plus).
    if (several) {
      for (let k = name.length - 1; k >= 1; k--) {
        const opening = name.slice(0, k);
        if (opening.some((w) => !NAME_FUNCTION_WORDS.has(w)) && cells.includes(` ${opening.join(' ')} `)) return true;
      }
    }
    for (let i = 0; i < tokens.length; i++) {
      // The question's common noun, then another name at once (`formule Sérénité` for the formule Essentielle).
      const next = tokens[i + 1];
      if (lead && tokens[i]!.word === lead && next && next.upper && next.word !== name[0] && !/^\d/.test(next.word) && joined(tokens[i]!, next)) return true;
      if (!several) continue;
      // The name's opening words, capitalised, then at once another capitalised word (`Whitcombe House`).
      let k = 0;
      while (k < name.length - 1 && i + k < tokens.length && tokens[i + k]!.word === name[k]) k++;
      if (k === 0) continue;
      const run = tokens.slice(i, i + k);
      if (!run.some((t) => !NAME_FUNCTION_WORDS.has(t.word)) || !run.every((t) => t.upper || NAME_FUNCTION_WORDS.has(t.word))) continue;
      const after = tokens[i + k];
      if (!after || !after.upper || /^\d/.test(after.word) || after.word === name[k] || !joined(run[k - 1]!, after)) continue;
      return true;
    }
    return false;
  });
}
