/**
 * Where a sentence's words belong (issue 26, third round): which words a negation governs, and which words
 * an amount, a date or a name of the sentence is said of. Read on folded words with their offsets, without
 * a parser: clause boundaries are punctuation and connectors, a negation governs the words after it up to
 * the end of its clause (a relative clause ends at the next auxiliary: "guests who do not hold a permit
 * must leave" negates "hold a permit", not "leave").
 */
import { words, type Word } from './text.js';
import { unnamed } from '../../lib/unnamed.js';

export interface Span {
  start: number;
  end: number;
}

/** A folded word of a text with its offsets and whether a negation governs it. */
export interface ScopedWord extends Word {
  negated: boolean;
  /** Governed by a preposition of absence (`without`, `sans`): what is absent, not what the clause denies. */
  absence?: boolean;
}

/** Words that end a negation's reach: the connectors that start another clause or assertion. */
const BOUNDARY_WORDS = new Set([
  'and', 'or', 'but', 'because', 'unless', 'which', 'who', 'whom', 'whose', 'that', 'while', 'whereas', 'although', 'though', 'if',
  'when', 'where', 'so', 'since', 'as', 'except', 'unlike', 'whilst', 'then',
  'et', 'ou', 'mais', 'car', 'qui', 'dont', 'si', 'lorsque', 'quand', 'parce', 'tandis', 'alors', 'bien', 'sauf', 'donc', 'puis',
]);

/**
 * `and`, `or`, `et`, `ou` end a negation only before another predicate (`… and does not cover`), not inside a
 * list (`does not cover roofs or gutters`): these words after them start one.
 */
const PREDICATE_OPENERS = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'does', 'do', 'did', 'will', 'shall', 'may', 'must', 'can', 'could',
  'should', 'would', 'might', 'not', 'never', 'no', 'cannot', 'it', 'they', 'he', 'she', 'we', 'the', 'a', 'an', 'its', 'their',
  'est', 'sont', 'a', 'ont', 'doit', 'doivent', 'peut', 'peuvent', 'sera', 'seront', 'ne', 'n', 'il', 'elle', 'ils', 'elles', 'le', 'la', 'les',
  'l', 'un', 'une', 'des', 'son', 'sa', 'ses', 'leur', 'leurs', 'se', 's',
]);

/** A past participle (`counted`, `treated`, `regarded`, `seen`, `taken`): `as` after it is a preposition. */
const PARTICIPLE_BEFORE_AS = /^\p{L}{2,}(?:ed|en)$/u;

/** Auxiliaries and modals: after a verbal negation and a word of its own, one starts the next predicate. */
const AUXILIARIES = new Set([
  'is', 'are', 'was', 'were', 'has', 'have', 'had', 'will', 'shall', 'may', 'must', 'can', 'could', 'should', 'would', 'might', 'does', 'do',
  'est', 'sont', 'doit', 'doivent', 'peut', 'peuvent', 'sera', 'seront', 'ont',
]);

/** Negations that negate a verb (their reach ends at the next predicate) and those that open a noun phrase. */
const VERBAL = new Set(['not', 'never', 'cannot', 'ne', 'n', 'nullement', 'jamais']);
// Fourteenth round (vcontra5): `personne` is no negation by itself: it is the noun `person` (`95 € par personne`), a negation only
// as the subject of `ne` (`Personne n'est admis`, below); `ne … personne` is `ne`'s. `non` is a prefix (below).
const NOMINAL = new Set(['no', 'none', 'nobody', 'nothing', 'neither', 'nor', 'without', 'aucun', 'aucune', 'rien', 'sans', 'ni']);
/** Negative quantifiers that may stand as a verb's object (`costs nothing`, `pays no fee`). */
const OBJECT_NEGATIONS = new Set(['no', 'none', 'nothing', 'aucun', 'aucune', 'rien']);
/**
 * Prepositions of absence: they negate their own object only (`notify the Controller without undue delay and in any
 * case within 36 hours`: the notifying is affirmed), not the clause before them nor another complement after a
 * conjunction.
 */
const PREPOSITIONAL = new Set(['without', 'sans']);
/** Prepositions that, after `and` or `or`, open another complement than the preposition of absence's (`and in any case within`). */
const PREPOSITIONS = new Set([
  'in', 'on', 'at', 'within', 'by', 'for', 'with', 'from', 'to', 'after', 'before', 'under', 'upon', 'during',
  'dans', 'en', 'a', 'pour', 'avec', 'par', 'sous', 'apres', 'avant', 'des', 'au', 'aux', 'lors',
]);

/** Words after `no` / `not` that make a bound, not a negation (`no later than`, `not exceeding`, `not only`); the comparatives only before `than` (`no longer` negates). */
const BOUND_AFTER = /^(?:later|earlier|sooner|exceed|exceeding|exceeds|only)$/;
const COMPARATIVE_AFTER = /^(?:more|less|fewer|longer|shorter|higher|lower|greater|smaller)$/;

/** Prepositions after which `no` / `aucun` opens the preposition's own noun phrase (`with no exceedances`, `avec aucun frais`). */
const PHRASE_PREPOSITIONS = new Set(['with', 'avec', 'at']);
/** French verbs of a bound after `ne … pas` (`ne peut pas dépasser`, `ne dépassera pas`): a maximum, not a negation. */
const FRENCH_BOUND = /^(?:depasser|exceder|depasse|depassera|depasseront|depassent|excede|excedera)$/;

/** French particles closing `ne`: with none of them in the clause, `ne … que` means "only", not a negation. */
const FRENCH_CLOSERS = new Set(['pas', 'plus', 'jamais', 'rien', 'aucun', 'aucune', 'personne', 'guere', 'nullement', 'ni', 'point']);

/** Whether text between two words holds a clause boundary (punctuation, a table cell, a line break). */
const PUNCTUATION = /[,;:()|\n.!?«»"“”–—]/;

/**
 * The words of a text, each marked when a negation governs it. A negation's reach runs from the start of its
 * clause to the end of it (punctuation or a connector); a verbal negation's reach also ends at an auxiliary
 * once it holds a word (a relative clause's own predicate). `no later than`, `not only`, `ne … que` are not
 * negations.
 */
export function scopedWords(text: string): ScopedWord[] {
  const ws = words(text);
  // One shape per word (`absence` present from the start), made field by field rather than by a spread.
  const out: ScopedWord[] = [];
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    out.push({ w: w.w, start: w.start, end: w.end, negated: false, absence: undefined });
  }
  // Punctuation between a word and the one before it: a single space (most gaps) has none, without a slice and a test.
  const boundaryBefore = unnamed((i: number) => {
    if (i <= 0) return false;
    const from = ws[i - 1]!.end;
    const to = ws[i]!.start;
    if (to - from === 1 && text.charCodeAt(from) === 32) return false;
    return PUNCTUATION.test(text.slice(from, to));
  });
  const endsReach = unnamed((i: number, verbal: boolean, held: number): boolean => {
    const w = ws[i]!.w;
    if (boundaryBefore(i)) return true;
    if ((w === 'and' || w === 'or' || w === 'et' || w === 'ou') && !PREDICATE_OPENERS.has(ws[i + 1]?.w ?? '')) return false;
    // `as` after a participle introduces its complement (`is not counted as downtime`, `not treated as income`), not a clause.
    if (w === 'as' && PARTICIPLE_BEFORE_AS.test(ws[i - 1]?.w ?? '')) return false;
    if (BOUNDARY_WORDS.has(w)) return true;
    // Seventeenth round (vprec7): `May` written with its capital inside a sentence is the month (`from May to August`), not a modal.
    return verbal && held > 0 && AUXILIARIES.has(w) && !(w === 'may' && i > 0 && text.charCodeAt(ws[i]!.start) === 77);
  });
  // Words a verbal negation reaches: one a preposition of absence reaches too is negated twice (below).
  const verbalReach = new Uint8Array(ws.length);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!.w;
    // Fourteenth round (vcontra5): `non` is a prefix (`non-refundable`, `non-résident`, `non compris dans le prix`): it negates the
    // phrase it opens, up to the next predicate, not the clause's words before it nor its verb (`A non-refundable advance deposit
    // of $250 is required to reserve a room` still requires a deposit to reserve a room).
    if (w === 'non') {
      for (let k = i + 1, held = 0; k < ws.length && !endsReach(k, true, held); k++, held++) out[k]!.negated = true;
      continue;
    }
    const contracted = w === 't' && i > 0 && /n$/.test(ws[i - 1]!.w) && ws[i]!.start === ws[i - 1]!.end + 1;
    const nobody = w === 'personne' && (ws[i + 1]?.w === 'ne' || ws[i + 1]?.w === 'n');
    if (!contracted && !VERBAL.has(w) && !NOMINAL.has(w) && !nobody) continue;
    // Tenth round (precision): `never be more than`, `cannot exceed`, `will not be higher than` are bounds too (a maximum, as
    // `no more than`), the copula between the negation and the comparative included; so `ne … pas dépasser`.
    const bound = unnamed((k: number) => BOUND_AFTER.test(ws[k]?.w ?? '') || (COMPARATIVE_AFTER.test(ws[k]?.w ?? '') && ws[k + 1]?.w === 'than'));
    if ((w === 'no' || w === 'not' || w === 'never' || w === 'cannot' || contracted) && (bound(i + 1) || (ws[i + 1]?.w === 'be' && bound(i + 2)))) continue;
    if (w === 'ne' || w === 'n') {
      // `ne … que` (only) is a restriction; `ne … pas`, `n'… jamais`, `ne … plus` negate.
      let closed = false;
      let bounded = false;
      for (let k = i + 1; k < ws.length && k < i + 8 && !boundaryBefore(k); k++) {
        if (FRENCH_CLOSERS.has(ws[k]!.w)) {
          closed = true;
          if (FRENCH_BOUND.test(ws[k + 1]?.w ?? '')) bounded = true;
        } else if (k === i + 1 && FRENCH_BOUND.test(ws[k]!.w)) bounded = true;
      }
      if (!closed || bounded) continue;
    }
    const verbal = contracted || VERBAL.has(w);
    // Tenth round (precision): a nominal negation inside a prepositional phrase (`performed on 23/09/2025 with no exceedances
    // recorded`, `avec aucun frais`) negates that phrase's noun only, as `without` does, not the clause it qualifies. At the
    // clause's opening (`At no time will …`, `In no case …`) it still negates the whole clause.
    const inPhrase = (w === 'no' || w === 'aucun' || w === 'aucune') && i > 1 && PHRASE_PREPOSITIONS.has(ws[i - 1]!.w) && !boundaryBefore(i - 1) && !BOUNDARY_WORDS.has(ws[i - 2]!.w);
    const prepositional = PREPOSITIONAL.has(w) || inPhrase;
    // Fourteenth round (vcontra5): a negative quantifier after a word of its clause stands as that word's object (`Borrowing a
    // wetsuit costs nothing`, `Members pay no fee`): it denies the object and the verb it completes, not the clause's subject
    // (borrowing a wetsuit is still said). At the clause's opening (`No deposit is required`) it negates the whole clause.
    // Not a field's value (`| Temperature control | none |`, `Deposit: none`), which denies its whole label, nor a quantifier
    // inside a preposition of absence's phrase (`sans aucun supplément`), read as before.
    const objectOnly = !verbal && OBJECT_NEGATIONS.has(w) && i > 0 && !boundaryBefore(i) && !PREPOSITIONAL.has(ws[i - 1]!.w);
    // Back to the start of its clause: the subject of what it negates (`5 GHz networks are not supported`).
    for (let k = i - 1; k >= 0 && !prepositional; k--) {
      if (BOUNDARY_WORDS.has(ws[k]!.w) && !((ws[k]!.w === 'and' || ws[k]!.w === 'or' || ws[k]!.w === 'et' || ws[k]!.w === 'ou') && !PREDICATE_OPENERS.has(ws[k + 1]?.w ?? ''))) break;
      out[k]!.negated = true;
      if (verbal) verbalReach[k] = 1;
      if (boundaryBefore(k) || objectOnly) break;
    }
    let held = 0;
    const label = negatedLabel(text, ws, i);
    // Fifteenth round (vcontra7): a negated label's value is the rest of its line or cell, every item of it (`Not included in the
    // rates: car parking (£13 …), access to the spa and pool, and drinks`): its commas and brackets separate items, not clauses.
    const lineEnd = label < 0 ? -1 : endOfLine(text, ws[label]!.start);
    let listed = false;
    let bracket = false;
    for (let k = i + 1; k < ws.length; k++) {
      if (lineEnd >= 0 && k >= label) {
        if (ws[k]!.start >= lineEnd) break;
        // An aside in brackets (`(£13 per vehicle per day)`, `(quoted separately)`) says something of an item: not negated.
        const gap = text.slice(ws[k - 1]!.end, ws[k]!.start);
        if (gap.includes('(')) bracket = true;
        if (gap.includes(')')) bracket = gap.lastIndexOf('(') > gap.lastIndexOf(')');
        if (bracket) continue;
        out[k]!.negated = true;
        if (verbal) verbalReach[k] = 1;
        held++;
        continue;
      }
      if ((k !== label && endsReach(k, verbal, held) && !(held > 0 && (listed = listGoesOn(text, ws, k, listed)))) || (prepositional && /^(?:and|or|et|ou)$/.test(ws[k]!.w) && PREPOSITIONS.has(ws[k + 1]?.w ?? ''))) break;
      out[k]!.negated = true;
      if (prepositional) out[k]!.absence = true;
      if (verbal) verbalReach[k] = 1;
      held++;
    }
  }
  // Fourteenth round (vcontra5): what a preposition of absence governs inside a verbal negation's reach is negated twice: `may not
  // give a discount without the artist's approval` requires the approval (as `unless`), it does not deny it. Still absent (the
  // seventh round's `without … consent` on both sides), no longer negated.
  for (let k = 0; k < out.length; k++) if (out[k]!.absence && verbalReach[k]) out[k]!.negated = false;
  return out;
}

/**
 * Fourteenth round (vcontra6): a negated field label (`Not included: gearbox overhaul and …`, `Non compris : …`, `Not
 * covered: …`): a line or cell opening with `not` / `non` / `no` and one or two words, then a colon. The label's negation
 * governs its value, which the colon would otherwise end. Returns the index of the value's first word, or -1.
 */
function negatedLabel(text: string, ws: readonly Word[], i: number): number {
  const w = ws[i]!.w;
  if (w !== 'not' && w !== 'non' && w !== 'no') return -1;
  const opening = text.slice(i > 0 ? ws[i - 1]!.end : 0, ws[i]!.start);
  if (i > 0 && !/[\n|]/.test(opening)) return -1;
  if (!/^[\s>*_|#+•-]*$/u.test(opening.replace(/^[^\n|]*[\n|]/u, ''))) return -1;
  // Fifteenth round (vcontra7): up to four words (`Not included in the rates:`), none of them a verb's auxiliary (a clause, not a label).
  for (let k = i + 1; k <= i + 4 && k + 1 < ws.length; k++) {
    if (AUXILIARIES.has(ws[k]!.w)) return -1;
    const between = text.slice(ws[k]!.end, ws[k + 1]!.start);
    if (/^[\s*_]*:[\s*_]*$/u.test(between)) return k + 1;
    if (between.trim() !== '' && !/^[\s*_-]*$/u.test(between)) return -1;
  }
  return -1;
}

/** Where the line or table cell holding offset `at` ends. */
function endOfLine(text: string, at: number): number {
  const m = /[\n|]/.exec(text.slice(at));
  return m ? at + m.index : text.length;
}

/** Words that cannot be a bare list item: they open or link a predicate. */
const NOT_ITEM = new Set([...PREDICATE_OPENERS, ...AUXILIARIES, ...BOUNDARY_WORDS].filter((w) => !['the', 'a', 'an', 'le', 'la', 'les', 'l', 'un', 'une', 'des', 'its', 'their', 'son', 'sa', 'ses', 'leur', 'leurs'].includes(w)));

/**
 * Fifteenth round (vcontra7): whether the comma before word `k` only separates the items of a list the negation governs (`does not
 * cover the owner's horse, tack or trailer`, `ne couvre ni le cheval, ni la sellerie`): from `k` to the end of the clause (a full
 * stop, a semicolon, a colon, a bracket, a cell, the text's end) only short items (one to three words, no figure, none that opens
 * or links a predicate, an article apart) separated by commas, the last after `and` / `or` / `nor` / `et` / `ou` / `ni`, with an
 * item before that conjunction (or, after a list's comma already read, the conjunction right after the comma: `roofs, gutters, or
 * chimneys`). A clause after a comma (`…, and guests pay £5`) is none.
 */
function listGoesOn(text: string, ws: readonly Word[], k: number, inList: boolean): boolean {
  const gap = text.slice(ws[k - 1]!.end, ws[k]!.start);
  if (!/^[\s*_]*,[\s*_]*$/u.test(gap)) return false;
  let items = 0;
  let size = 0;
  let joined = false;
  for (let j = k; j < ws.length; j++) {
    const w = ws[j]!.w;
    const before = j === k ? '' : text.slice(ws[j - 1]!.end, ws[j]!.start);
    if (j > k && /[.;:()|\n!?]/.test(before)) break;
    if (j > k && /,/.test(before)) {
      if (size === 0 || joined) return false;
      items++;
      size = 0;
    }
    if (/^(?:and|or|nor|et|ou|ni)$/.test(w)) {
      // At the comma itself only a list's last item (`roofs, gutters, or chimneys`, once `gutters` was read as an item) or `ni`.
      if (joined || (size === 0 && items === 0 && j !== k) || (j === k && w !== 'ni' && !inList)) return false;
      if (j === k) items++;
      if (size > 0) items++;
      size = 0;
      joined = true;
      continue;
    }
    if (/\d/.test(w) || NOT_ITEM.has(w) || ++size > 3) return false;
  }
  return joined && size > 0 && items >= 1;
}

/** Whether a text holds a negation that governs at least one word. */
export const hasNegation = (scoped: readonly ScopedWord[]): boolean => scoped.some((w) => w.negated);

/**
 * Conditions, exceptions and contrasts: with one of them, a sentence's polarity is not the claim's to take
 * (`unlike salaried staff, contractors are not eligible`, `may not … unless the owner agrees`, `ne … que`).
 * `excluding VAT` (or tax) is an amount's tax basis, not an exception to what the sentence says.
 */
const RESTRICTION =
  /(?<![\p{L}])(?:unlike|except|excepting|excluding(?!\s+(?:VAT|vat|[Tt]ax(?:es)?|TVA)(?![\p{L}]))|other\s+than|apart\s+from|instead\s+of|rather\s+than|unless|if|provided|only|whether|with\s+the\s+exception|sauf|except[ée]s?|hormis|[àa]\s+l['’]exception|exception\s+faite|contrairement|[àa]\s+la\s+diff[ée]rence|au\s+lieu|plut[ôo]t\s+que|[àa]\s+moins|si|seulement|uniquement|[àa]\s+condition|ne\s+(?:\p{L}+\s+){1,4}qu(?:e|['’])|n['’](?:\p{L}+\s+){1,4}qu(?:e|['’]))(?![\p{L}])/iu;

export const hasRestriction = (text: string): boolean => RESTRICTION.test(text);

/** Conditions (`if`, `provided`, `unless`, `si`, `à condition`, `sous réserve`), as written (the month `May` is no modal). */
const CONDITION = /(?<![\p{L}])(?:[Ii]f|[Pp]rovided|[Uu]nless|[Ss]i|[Ss]ous\s+r[ée]serve|[àaÀA]\s+condition)(?![\p{L}])/u;
/** Modals of possibility (`may`, `might`, `could`, `can`, `peut`, `pourra`…), in lower case. */
const POSSIBILITY = /(?<![\p{L}])(?:may|might|could|can|peut|peuvent|pourra|pourront|pourrait|pourraient)(?![\p{L}])/u;

/**
 * Whether a fact at `at` in `text` is stated as a possibility or under a condition: the text holds a condition, or a
 * modal of possibility stands before the fact (`The Tenant may end this lease on 1 September 2031`); a modal after it
 * (`ends on 31 August 2036, but may be renewed`) leaves the fact itself stated.
 */
export const hypothetical = (text: string, at: number): boolean => CONDITION.test(text) || POSSIBILITY.test(text.slice(0, at));

/**
 * Words whose meaning holds a negation (`excluded` is "not included", `prohibited` "not allowed"): a
 * negation on one side against one of these on the other may be the same statement, so the negation
 * rule does not decide. Folded prefixes.
 */
const NEGATIVE_MEANING =
  /^(?:prohibit\w*|forbid\w*|forbade|bans?|banned|exclud\w*|exclusions?|exempt\w*|refus\w*|reject\w*|denied|deny|denies|fail\w*|lack\w*|absent|unable|impossible|waive\w*|void|invalid|withh\w*|interdi\w*|exclue?s?|dispens\w*|impossib\w*|manqu\w*|inelig\w*|unavail\w*|indisponib\w*)$/;

export const hasNegativeMeaning = (folded: readonly string[]): boolean => folded.some((w) => NEGATIVE_MEANING.test(w));

/** Whether one folded word means a negation (NEGATIVE_MEANING). */
export const isNegativeMeaning = (folded: string): boolean => NEGATIVE_MEANING.test(folded);

/** Clause boundaries: punctuation, table cells, and connectors that start another assertion. */
const CLAUSE_CUT = /[;()|]|[,:](?!\d)|\s(?:but|while|whereas|although|though|because|unless|which|who|mais|tandis|alors|bien|car|sauf|donc|qui|dont)\s/giu;

export function clausesOf(text: string): Span[] {
  const out: Span[] = [];
  let from = 0;
  CLAUSE_CUT.lastIndex = 0;
  for (let m = CLAUSE_CUT.exec(text); m; m = CLAUSE_CUT.exec(text)) {
    if (m.index > from) out.push({ start: from, end: m.index });
    from = m.index + m[0].length;
  }
  if (from < text.length) out.push({ start: from, end: text.length });
  return out;
}

/** Words opening a restatement of the value before them (`soit 2 916 €`, `soit une pénalité de 300 €`, `i.e. €1,390`). */
const RESTATEMENT = /^[\s*_]*(?:soit|c['’]est[\s-][àa][\s-]dire|i\.?\s?e\.|that\s+is|namely|equivalent\s+to|[ée]quivalent\s+[àa])(?![\p{L}])/iu;

/** Whether a clause, up to its fact, opens with a restatement of the previous clause's value. */
export const restates = (before: string): boolean => RESTATEMENT.test(before);

/** A conjunction between two facts: what comes before it is the first fact's, what comes after the second's. */
const CONJUNCTION = /(?<![\p{L}])(?:and|or|while|whereas|plus|et|ou|puis)(?![\p{L}])/iu;
/** A clause opening with a coordinating conjunction and nothing else before its first fact (`and £45 …`, `et 45 € …`). */
const COORDINATED = /^[\s*_]*(?:and|or|et|ou)[\s*_]*$/iu;

/**
 * What each fact (an amount, a date, a name) of a text is said of: the text of its clause around it, up to
 * the neighbouring facts. Between two facts of a clause, a conjunction divides the words (`the licence costs
 * 1 200 EUR and the onboarding day costs 450 EUR`: *onboarding day* is the second amount's); without one,
 * both take them (`moved from 30 June to 15 September`). A fact with nothing of its own before it (`Ingrid
 * Olsen and Tomas Berg`) shares the previous fact's words. Returns, per fact, the spans of its words.
 */
export function regionsOf(text: string, facts: readonly Span[], hasContent: (s: string) => boolean, clauses: Span[] = clausesOf(text)): Span[][] {
  const out: Span[][] = facts.map(() => []);
  const order = facts.map((_, i) => i).sort((a, b) => facts[a]!.start - facts[b]!.start);
  // The words before the sentence's first fact (its first clause that has some): the subject a coordinated part opening with a
  // conjunction and nothing else before its fact shares (`… are charged at £28 per hour for the small room (up to 6) and
  // £45 per hour for the boardroom`: the £45 is of the charged hours too, and of the boardroom nearest to it).
  let opening: Span | null = null;
  for (const clause of clauses) {
    const inside = order.filter((i) => facts[i]!.start >= clause.start && facts[i]!.start < clause.end);
    const left: Span[] = [];
    const right: Span[] = [];
    inside.forEach((f, k) => {
      const fact = facts[f]!;
      const from = k === 0 ? clause.start : facts[inside[k - 1]!]!.end;
      const to = k === inside.length - 1 ? clause.end : facts[inside[k + 1]!]!.start;
      left[k] = { start: from, end: fact.start };
      right[k] = { start: fact.end, end: to };
      if (k > 0) {
        // The words between the previous fact and this one: divided at a conjunction.
        const between = text.slice(from, fact.start);
        const c = CONJUNCTION.exec(between);
        if (c) {
          right[k - 1] = { start: from, end: from + c.index };
          left[k] = { start: from + c.index + c[0].length, end: fact.start };
        } else {
          right[k - 1] = { start: from, end: fact.start };
        }
      }
    });
    inside.forEach((f, k) => {
      const own = left[k]!;
      const spans = [own, right[k]!];
      const bare = !hasContent(text.slice(own.start, own.end));
      // Nothing of its own before it: the words before the previous fact are about it too.
      if (k > 0 && bare) spans.push(left[k - 1]!);
      if (k === 0 && bare && opening && COORDINATED.test(text.slice(own.start, own.end))) spans.push(opening);
      if (k === 0 && !bare && !opening) opening = own;
      out[f] = spans.filter((s) => s.end > s.start);
    });
  }
  return out;
}
