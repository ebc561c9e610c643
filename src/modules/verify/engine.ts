import { setImmediate as nextTurn } from 'node:timers/promises';
import { codesOf, entitiesOf, readClaim, type Entity } from '../../lib/language/entities.js';
import { alternativesOf } from '../../lib/language/alternatives.js';
import { eachClaim, eachSentence, MAX_QUOTE_CHARS, pieces, type Segment } from './claims.js';
import { dates, datesAgree, type DateSpan } from './dates.js';
import { antonymsFor, isNegationWord, negationCount } from './lexicon.js';
import { quantities, sameValue, type Quantity } from './quantities.js';
import { detectLanguage, fold, MAX_WORD, STOP_WORDS, stemmerFor, words, type Language } from './text.js';

export type Verdict = 'supported' | 'contradicted' | 'unverifiable';

export interface PassageInput {
  source: string;
  content: string;
  /** Set for a passage of a knowledge collection. */
  sourceId?: string;
  chunkId?: string;
}

export interface Evidence {
  source: string;
  /** The sentence of the passage that backs or contradicts the claim, verbatim. */
  quote: string;
  /** Character offsets of the quote in the passage's content. */
  start: number;
  end: number;
  /** Weighted share of the claim's words found in the quote (0 to 1). */
  score: number;
  sourceId?: string;
  chunkId?: string;
}

export interface ClaimResult {
  text: string;
  /** Character offsets of the claim in the verified text. */
  start: number;
  end: number;
  verdict: Verdict;
  /** What decided the verdict: `numbers`, `dates`, `negation`, `antonym`, `entities`, `overlap`, or `none`. */
  rule: string;
  evidence: Evidence[];
}

/** Thresholds of docs/verifier.md, on the weighted share of the claim's words found in a sentence. */
export const THRESHOLDS = {
  /** Supported: at least this share, every amount, date and name of the claim found, same polarity. */
  support: 0.75,
  /** Contradicted by an amount or a date: the sentence is about the same thing (this share at least). */
  conflict: 0.5,
  /** Contradicted by a negation or an antonym. */
  polarity: 0.75,
  /** Contradicted by another name in place of one of the claim's (another name of the claim is shared). */
  entity: 0.6,
  /** An amount or date of the sentence is the claim's (same subject) from this share of the claim's words around it on. */
  subject: 0.5,
  /** Supported when the sentence itself holds the claim's exact figures, dates and stated names. */
  anchored: 0.45,
  /** Supported when the sentence holds the claim's exact distinctive figure (four significant digits or more). */
  distinctive: 0.3,
  /** An unverifiable claim shows its nearest sentence from this share on. */
  nearest: 0.3,
} as const;

/**
 * A support outweighs a sentence where another name stands in place of the claim's when its own words (names
 * apart) hold at least this share of that sentence's score: both are about the same thing.
 */
const SUPPORT_OVER_NAME = 0.9;
/** Sentences examined in full per claim, after the quick count over rare words. */
const CANDIDATES = 8;
/** A word in more sentences than this does not drive the candidate count (it still counts in the score). */
const COMMON_DF = 2000;
/** A figure (`#108`) in more sentences than this does not find candidates. */
const RARE_FIGURE = 20;
/** Work between two turns of the event loop. */
const SLICE_MS = 8;
/** A claim word found only in the sentence's context (title, section, table header, document name) counts this much. */
const CONTEXT_WEIGHT = 0.9;
/** A claim word found only as a synonym or a translation counts this much. */
const SYNONYM_WEIGHT = 0.8;

interface Sentence {
  passage: number;
  seg: Segment;
  stems: string[];
  /** Stems of the sentence's context not in the sentence: the document's title, its section, a table row's header, the document's name. */
  context: string[];
  /** The context as text (shared by the sentences of a section). */
  contextText: string;
  /** A table row's header cells, when the sentence is a row. */
  header: string[] | null;
  negations: number;
  facts?: Facts;
}

/** An amount or a date with the stems of what it is about: its clause, or its row's cells and column header. */
interface Fact<T> {
  fact: T;
  about: Set<string>;
}

interface Facts {
  quantities: Fact<Quantity>[];
  dates: Fact<DateSpan>[];
  /** Folded words of the sentence and its context. */
  words: Set<string>;
  /** Names and codes of the sentence (tagged on first need). */
  entities?: Entity[];
  /** Clauses: their stems and negations. */
  clauses: { stems: Set<string>; negations: number }[];
}

interface Claim {
  seg: Segment;
  /** Stems the score counts (content words, names excluded). */
  stems: string[];
  /** Capitalised words inside the claim that the tagger did not read as names (`French`, `Premium`), folded. */
  capitals: string[];
  /** Stems of the claim's names: they count in the score once the names are found (past the entity rule). */
  nameStems: string[];
  /** Stems that find candidates (names included). */
  lookup: string[];
  /** The claim's folded words by stem. */
  surface: Map<string, string[]>;
  /** Per stem of `stems`: stems of its synonyms, translations and other indexed forms (filled on first need). */
  alternatives: Map<string, string[]>;
  entities: Entity[];
  /** Offset of the claim's first verb: entities before it are what the claim is about. */
  verbAt: number;
  negations: number;
  quantities: Fact<Quantity>[];
  dates: Fact<DateSpan>[];
}


/** Clause boundaries inside a sentence: punctuation, table cells, and the connectors that start another assertion. */
const CLAUSE_CUT = /[,;:()|]|\s(?:but|while|whereas|although|though|because|unless|which|mais|tandis|alors|bien|car|sauf|donc)\s/giu;

function clausesOf(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let from = 0;
  CLAUSE_CUT.lastIndex = 0;
  for (let m = CLAUSE_CUT.exec(text); m; m = CLAUSE_CUT.exec(text)) {
    if (m.index > from) out.push({ start: from, end: m.index });
    from = m.index + m[0].length;
  }
  if (from < text.length) out.push({ start: from, end: text.length });
  return out;
}

const TABLE_SEPARATOR = /^\|?[\s:|-]+\|?$/;
const cellsOf = (row: string) => row.replace(/^\s*\|/, '').replace(/\|\s*$/, '').split('|').map((c) => c.trim());

const roundScore = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The verifier: passages are indexed sentence by sentence (stems after folding and stop words), then each
 * claim is scored against its best candidate sentences and given a verdict by the rules of
 * docs/verifier.md. Deterministic: same claims and passages in the same order give the same report.
 * Long inputs are processed in slices that give the event loop back.
 */
export class Verifier {
  readonly language: Language;
  private readonly stem: (w: string) => string;
  private readonly antonyms: Map<string, Set<string>>;
  private readonly passages: PassageInput[] = [];
  /** The indexed stems in order, for finding the stems a claim stem is a prefix of (built on first use). */
  private sortedStems: string[] | null = null;
  /** Context stems by context text (a section's sentences share one). */
  private readonly contextStems = new Map<string, string[]>();
  private readonly sentences: Sentence[] = [];
  private readonly postings = new Map<string, number[]>();
  /** Verdicts by claim text: a text repeating a claim is judged once (the offsets are the claim's own). */
  private readonly judged = new Map<string, Omit<ClaimResult, 'start' | 'end'>>();
  /** Candidate scores by sentence, reused from claim to claim. */
  private scores = new Float64Array(0);
  private lastTurn = performance.now();
  /** Folded words of each passage (text and name), built on first need by the entity rule. */
  private readonly passageWords: Set<string>[] = [];
  /** Amounts and dates of each context text. */
  private readonly contextFactsMemo = new Map<string, { quantities: Quantity[]; dates: DateSpan[] }>();
  /** Folded word → stem ('' when ignored), for this verification. */
  private readonly stems = new Map<string, string>();

  /**
   * `checkpoint` runs between any two claims or passages and may throw to stop the work (the service
   * stops when the client has left or the server is shutting down).
   */
  constructor(
    text: string,
    private readonly checkpoint: () => void = () => {},
  ) {
    this.language = detectLanguage(words(text.slice(0, 20_000)).map((w) => w.w));
    this.stem = stemmerFor(this.language);
    this.antonyms = antonymsFor(this.stem);
  }

  /** Gives the event loop a turn when the current slice of work has lasted long enough. */
  private async breathe(): Promise<void> {
    this.checkpoint();
    if (performance.now() - this.lastTurn < SLICE_MS) return;
    await nextTurn();
    this.lastTurn = performance.now();
  }

  /** The stem of a folded word, or '' for a word the score ignores (stop word, negation, number, one letter); memoised. */
  private stemOf(w: string): string {
    let s = this.stems.get(w);
    if (s === undefined) {
      s = w.length < 2 || w.length > MAX_WORD || STOP_WORDS.has(w) || isNegationWord(w) || /^\d/.test(w) ? '' : this.stem(w);
      this.stems.set(w, s);
    }
    return s;
  }

  private contentStems(text: string): { stems: string[]; negations: number; numbers: string[] } {
    // Folded once for the whole text (offsets are not needed here): far cheaper than word by word.
    const folded = fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
    const stems: string[] = [];
    const numbers: string[] = [];
    for (const w of folded) {
      const s = this.stemOf(w);
      if (s) stems.push(s);
      // Figures find candidate sentences (`#108` for the 108 of £3,108.00); they are compared by the amount rules, not scored.
      else if (/^\d{2,}$/.test(w) && !/^0+$/.test(w)) numbers.push(`#${w}`);
    }
    return { stems, negations: negationCount(folded), numbers };
  }

  async addPassages(passages: Iterable<PassageInput>): Promise<void> {
    for (const p of passages) {
      const index = this.passages.length;
      this.passages.push(p);
      // The document's own context, carried by each of its sentences: its name, its title (first heading),
      // the current section's heading and, in a table, the header row.
      const name = p.source.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[-_]+/g, ' ');
      let title = '';
      let section = '';
      let header: string[] | null = null;
      let lastRowEnd = -1;
      for (const whole of eachSentence(p.content)) {
        const heading = /^(#{1,6})\s+(.*)$/u.exec(whole.text);
        if (heading) {
          if (!title) title = heading[2]!;
          else section = heading[2]!;
          header = null;
        }
        const row = whole.text.startsWith('|');
        // A table starts after a line that is not a row (a blank line between two tables included).
        if (row && lastRowEnd >= 0 && /\n[ \t]*\n/.test(p.content.slice(lastRowEnd, whole.start))) header = null;
        if (row) lastRowEnd = whole.end;
        if (row && TABLE_SEPARATOR.test(whole.text)) continue;
        let rowHeader: string[] | null = null;
        if (row) {
          if (!header) header = cellsOf(whole.text);
          else rowHeader = header;
        } else header = null;
        const contextText = [name, title, section, rowHeader ? rowHeader.join(' ') : ''].join(' \n ');
        for (const seg of whole.text.length > MAX_QUOTE_CHARS ? pieces(whole, MAX_QUOTE_CHARS) : [whole]) this.addSentence(index, seg, contextText, rowHeader);
        await this.breathe();
      }
    }
  }

  private addSentence(passage: number, seg: Segment, contextText: string, header: string[] | null): void {
    const { stems, negations, numbers } = this.contentStems(seg.text);
    let context = this.contextStems.get(contextText);
    if (!context) this.contextStems.set(contextText, (context = [...new Set(this.contentStems(contextText).stems)]));
    const id = this.sentences.length;
    // Distinct stems, found through the postings (a list already ending with this sentence has the stem).
    // The context (shared by every sentence of a section) does not find candidates: it only counts in the score.
    const unique: string[] = [];
    for (const s of [...stems, ...numbers]) {
      let list = this.postings.get(s);
      if (!list) this.postings.set(s, (list = []));
      if (list[list.length - 1] === id) continue;
      list.push(id);
      if (!s.startsWith('#')) unique.push(s);
    }
    const own = new Set(unique);
    this.sentences.push({ passage, seg, stems: unique, context: context.filter((s) => !own.has(s)), contextText, header, negations });
  }

  get passageCount(): number {
    return this.passages.length;
  }

  /**
   * A verifier over the same indexed passages, for another verification: the index (passages, sentences,
   * postings, the stem memo) is shared and only read from here on (the memos it fills are the same for
   * every reader); what one verification writes (verdicts by claim, candidate scores, its stop check) is
   * its own. Used to keep a collection's index between requests (verify.service.ts). Add no passage to a
   * shared verifier.
   */
  share(checkpoint: () => void = () => {}): Verifier {
    const copy = Object.create(Verifier.prototype) as Verifier;
    Object.assign(copy, this, { judged: new Map(), scores: new Float64Array(0), lastTurn: performance.now(), checkpoint });
    return copy;
  }

  /** The claims of a text, each with a verdict and its best evidence. */
  async verify(text: string): Promise<ClaimResult[]> {
    const isContent = (w: string) => !STOP_WORDS.has(w) && !isNegationWord(w) && /\p{L}/u.test(w) && w.length > 1;
    const out: ClaimResult[] = [];
    if (this.scores.length !== this.sentences.length) this.scores = new Float64Array(this.sentences.length);
    for (const seg of eachClaim(text, isContent)) {
      let result = this.judged.get(seg.text);
      if (!result) this.judged.set(seg.text, (result = this.judge(this.analyse(seg))));
      out.push({ text: result.text, start: seg.start, end: seg.end, verdict: result.verdict, rule: result.rule, evidence: result.evidence });
      await this.breathe();
    }
    return out;
  }

  private analyse(seg: Segment): Claim {
    const { entities, verbAt } = readClaim(seg.text, this.language);
    const nameStems = new Set(entities.flatMap((e) => e.words.map((w) => this.stemOf(w))).filter(Boolean));
    // Names of what the claim is about (before its verb): found, they count in the score; a name the claim
    // states (after its verb) is compared by the entity rule and anchors the claim, it does not add to the score.
    const ownNameStems = [...new Set(entities.filter((e) => e.kind === 'name' && (verbAt < 0 || e.start < verbAt)).flatMap((e) => e.words.map((w) => this.stemOf(w))).filter(Boolean))];
    const ds = dates(seg.text);
    const qs = quantities(seg.text, this.stem, ds);
    // The words of an amount or a date (`280 cubic metres per hour`, `14 February 2025`) are compared by
    // the amount and date rules, not counted again as words.
    let plain = seg.text;
    for (const f of [...ds, ...qs]) plain = plain.slice(0, f.start) + ' '.repeat(f.end - f.start) + plain.slice(f.end);
    // Bounds (`at most`, `up to`, `au plus`) qualify an amount; they are read with it, not scored as words.
    plain = plain.replace(/\b(?:at\s+(?:most|least)|up\s+to|au\s+(?:plus|moins)|jusqu['’]\s*à)\b/giu, (m) => ' '.repeat(m.length));
    const { stems, negations } = this.contentStems(plain);
    const { numbers } = this.contentStems(seg.text);
    const unique = [...new Set(stems)];
    const scored = unique.filter((s) => !nameStems.has(s));
    // The claim's words by stem: their synonyms and translations are looked up when a sentence lacks the stem.
    const surface = new Map<string, string[]>();
    for (const w of new Set(fold(seg.text).match(/\p{L}+/gu) ?? [])) {
      const stem = this.stemOf(w);
      if (!stem || nameStems.has(stem)) continue;
      surface.set(stem, [...(surface.get(stem) ?? []), w]);
    }
    return {
      seg,
      stems: scored,
      nameStems: ownNameStems.filter((x) => !scored.includes(x)),
      capitals: [...seg.text.matchAll(/(?<=[\p{L}\p{N},;:)]\s+)\p{Lu}\p{Ll}+(?![\p{L}\p{N}-])/gu)]
        .filter((m) => ![...entities, ...ds].some((e) => m.index < e.end && m.index + m[0].length > e.start))
        .map((m) => fold(m[0]))
        .filter((w) => !STOP_WORDS.has(w)),
      lookup: [...unique, ...new Set(numbers)],
      surface,
      alternatives: new Map(),
      entities,
      verbAt,
      negations,
      // What each amount or date is about: the claim's words around it, not the words of the figures themselves.
      dates: this.about(plain, ds, 0, null, new Set()),
      quantities: this.about(plain, qs, 0, null, new Set()),
    };
  }

  /** Stems of a claim word's synonyms, translations and other indexed forms, looked up once per claim and stem. */
  private alternativesOf(claim: Claim, stem: string): string[] {
    let alts = claim.alternatives.get(stem);
    if (!alts) {
      const set = new Set(this.extensionsOf(stem));
      for (const w of claim.surface.get(stem) ?? []) {
        for (const a of alternativesOf(w)) {
          const as = this.stemOf(a);
          if (as && as !== stem) set.add(as);
        }
      }
      claim.alternatives.set(stem, (alts = [...set]));
    }
    return alts;
  }

  /** Indexed stems that start with `stem` (at least 4 letters), at most 6. */
  private extensionsOf(stem: string): string[] {
    if (stem.length < 4) return [];
    if (!this.sortedStems || this.sortedStems.length !== this.postings.size) this.sortedStems = [...this.postings.keys()].sort();
    const list = this.sortedStems;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < stem) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < list.length && out.length < 6 && list[i]!.startsWith(stem); i++) if (list[i] !== stem && !list[i]!.startsWith('#')) out.push(list[i]!);
    return out;
  }

  /**
   * Each amount or date of a text with what it is about: the stems of its clause, or for a table row the
   * header of its column and the row's cells without figures, plus `extra` (the sentence's context).
   */
  private about<T extends { start: number; end: number }>(text: string, facts: T[], _offset: number, header: string[] | null, extra: Set<string>): Fact<T>[] {
    if (facts.length === 0) return [];
    if (text.startsWith('|')) {
      const cells: { start: number; end: number; text: string }[] = [];
      let at = text.indexOf('|') + 1;
      for (;;) {
        const next = text.indexOf('|', at);
        const end = next < 0 ? text.length : next;
        cells.push({ start: at, end, text: text.slice(at, end) });
        if (next < 0) break;
        at = next + 1;
      }
      const plain = cells.filter((c) => !/\d/.test(c.text)).map((c) => c.text).join(' ');
      return facts.map((fact) => {
        const col = cells.findIndex((c) => fact.start >= c.start && fact.start < c.end);
        const about = new Set([...this.contentStems(`${plain} ${header?.[col] ?? ''}`).stems, ...extra]);
        return { fact, about };
      });
    }
    const clauses = clausesOf(text);
    return facts.map((fact) => {
      const c = clauses.find((x) => fact.start >= x.start && fact.start < x.end);
      const words = c ? text.slice(c.start, c.end) : text;
      return { fact, about: new Set([...this.contentStems(words).stems, ...extra]) };
    });
  }

  private idf(stem: string): number {
    const df = this.postings.get(stem)?.length ?? 0;
    return Math.log(1 + this.sentences.length / Math.max(df, 0.5));
  }

  private facts(s: Sentence): Facts {
    if (!s.facts) {
      const text = s.seg.text;
      const ds = dates(text);
      const qs = quantities(text, this.stem, ds);
      const context = new Set(s.context);
      // A row's header names each column: it belongs to the amount of its column, not to all of them.
      if (s.header) for (const h of this.contentStems(s.header.join(' ')).stems) context.delete(h);
      // A sentence with one amount (or one date) of a kind: that amount is about the whole sentence.
      const whole = new Set([...s.stems, ...context]);
      const quantityFacts = this.about(text, qs, 0, s.header, context);
      for (const q of quantityFacts) {
        if (qs.filter((o) => o.dimension === q.fact.dimension && o.unit === q.fact.unit).length === 1 && !text.startsWith('|')) q.about = whole;
      }
      const dateFacts = this.about(text, ds, 0, s.header, context);
      if (ds.length === 1 && !text.startsWith('|')) dateFacts[0]!.about = whole;
      const clauses = clausesOf(text).map((c) => {
        const part = this.contentStems(text.slice(c.start, c.end));
        return { stems: new Set(part.stems), negations: part.negations };
      });
      s.facts = {
        dates: dateFacts,
        quantities: quantityFacts,
        words: new Set(words(`${text}\n${s.contextText}`).map((w) => w.w)),
        clauses,
      };
    }
    return s.facts;
  }

  private sentenceWords(s: Sentence): Set<string> {
    return new Set(words(s.seg.text).map((w) => w.w));
  }

  /** Sentences sharing the most (weighted) rare words with the claim, its antonyms counted as shared. */
  private candidates(claim: Claim): number[] {
    const lookup = new Set(claim.lookup);
    for (const s of claim.lookup) for (const a of this.antonyms.get(s) ?? []) lookup.add(a);
    // Other indexed forms of the claim's words (`weigh` finds `weight`, `consum` finds `consumpt`).
    for (const s of claim.stems) for (const e of this.extensionsOf(s)) lookup.add(e);
    const byRarity = [...lookup]
      .filter((s) => this.postings.has(s))
      .sort((a, b) => this.postings.get(a)!.length - this.postings.get(b)!.length || (a < b ? -1 : 1));
    const scores = this.scores;
    const touched: number[] = [];
    byRarity.forEach((s, i) => {
      const list = this.postings.get(s)!;
      // Common words do not find candidates, except the rarest word of a claim made only of common ones;
      // a figure finds them only when it is rare (a year or a round number is everywhere).
      if ((list.length > COMMON_DF || (s.startsWith('#') && list.length > RARE_FIGURE)) && i > 0) return;
      const w = this.idf(s);
      const n = Math.min(list.length, COMMON_DF);
      for (let k = 0; k < n; k++) {
        const id = list[k]!;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += w;
      }
    });
    // The best few by score, ties to the earlier sentence: one pass keeping a short sorted list.
    const top: number[] = [];
    const better = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
    // The document's own context (its name, title, section) counts too, below the sentence's words: the VAT row
    // of the invoice the claim names outranks the VAT row of another invoice.
    const bonus = new Map<string, number>();
    for (const id of touched) {
      const s = this.sentences[id]!;
      let b = bonus.get(s.contextText);
      if (b === undefined) {
        b = 0;
        for (const stem of lookup) if (s.context.includes(stem)) b += this.idf(stem) * CONTEXT_WEIGHT;
        for (const e of claim.entities) if (e.kind === 'code' && e.words.every((w) => s.contextText.toLowerCase().includes(w))) b += this.idf(`#${e.words[e.words.length - 1]}`);
        bonus.set(s.contextText, b);
      }
      scores[id]! += b;
    }
    for (const id of touched) {
      if (top.length === CANDIDATES && !better(id, top[CANDIDATES - 1]!)) continue;
      let at = top.length < CANDIDATES ? top.length : CANDIDATES - 1;
      top[at] = id;
      while (at > 0 && better(top[at]!, top[at - 1]!)) {
        [top[at], top[at - 1]] = [top[at - 1]!, top[at]!];
        at--;
      }
    }
    for (const id of touched) scores[id] = 0;
    return top;
  }

  private judge(claim: Claim): ClaimResult {
    const base = { text: claim.seg.text, start: claim.seg.start, end: claim.seg.end };
    // A capitalised word of the claim (a nationality, a plan, a product line) that no passage mentions: the
    // claim is about something the evidence does not cover.
    const unknown = claim.capitals.find((w) => !this.mentioned({ text: w, words: [w], kind: 'name', start: 0, end: 0 }));
    let best: { verdict: Verdict; rule: string; score: number; id: number } | null = null;
    let nearest: { score: number; id: number } | null = null;
    let support: { verdict: Verdict; rule: string; score: number; own?: number; id: number } | null = null;
    const rank = (v: Verdict) => (v === 'supported' ? 2 : v === 'contradicted' ? 1 : 0);
    for (const id of this.candidates(claim)) {
      const r = this.compare(claim, this.sentences[id]!);
      if (!nearest || r.score > nearest.score) nearest = { score: r.score, id };
      if (r.verdict === 'unverifiable') continue;
      if (r.verdict === 'supported' && (!support || r.score > support.score)) support = { ...r, id };
      // The strongest sentence decides; on a tie an exact support wins over a conflict.
      if (!best || r.score > best.score + 1e-9 || (Math.abs(r.score - best.score) <= 1e-9 && rank(r.verdict) > rank(best.verdict))) {
        best = { ...r, id };
      }
    }
    // A sentence stating the claim with its names outweighs one where another name stands (the claim's name
    // is stated elsewhere in the evidence).
    // A sentence stating the claim's exact amount is about the claim's subject: another amount elsewhere is another subject's.
    if (best?.rule === 'numbers' && best.verdict === 'contradicted' && support?.rule === 'numbers') best = support;
    if (best?.rule === 'entities' && support && (support.own ?? 0) >= SUPPORT_OVER_NAME * best.score) best = support;
    if (best && !unknown) return { ...base, verdict: best.verdict, rule: best.rule, evidence: [this.evidence(best.id, best.score)] };
    const evidence = nearest && nearest.score >= THRESHOLDS.nearest ? [this.evidence(nearest.id, nearest.score)] : [];
    return { ...base, verdict: 'unverifiable', rule: 'none', evidence };
  }

  private evidence(id: number, score: number): Evidence {
    const s = this.sentences[id]!;
    const p = this.passages[s.passage]!;
    return {
      source: p.source,
      quote: s.seg.text,
      start: s.seg.start,
      end: s.seg.end,
      score: roundScore(score),
      ...(p.sourceId ? { sourceId: p.sourceId } : {}),
      ...(p.chunkId ? { chunkId: p.chunkId } : {}),
    };
  }

  /** The idf-weighted share of `stems` found in `about` (1 when there is nothing to compare). */
  private overlap(stems: Iterable<string>, about: Set<string>): number {
    let total = 0;
    let found = 0;
    for (const s of stems) {
      const w = this.idf(s);
      total += w;
      if (about.has(s)) found += w;
      else if (this.extensionsOf(s).some((e) => about.has(e))) found += w * SYNONYM_WEIGHT;
    }
    return total > 0 ? found / total : 1;
  }

  /**
   * Where the claim's amounts (or dates) stand against the sentence's: `match` when each has an equal one
   * of its unit; `conflict` when one differs from the sentence's amount of the same dimension about the
   * same thing (the claim's words around it found around the sentence's); `missing` otherwise.
   */
  private pair<T>(
    claimFacts: Fact<T>[],
    sentenceFacts: Fact<T>[],
    contextFacts: T[],
    comparable: (a: T, b: T) => boolean,
    equal: (a: T, b: T) => boolean,
    sameLine: boolean,
    within: (a: T, b: T) => boolean = equal,
  ): 'match' | 'conflict' | 'missing' {
    let missing = false;
    for (const c of claimFacts) {
      const same = sentenceFacts.filter((p) => comparable(c.fact, p.fact));
      // Stated by the document's own context (an invoice's number or date in its title): agreed, when the sentence does not state it.
      if (!same.some((p) => equal(c.fact, p.fact)) && contextFacts.some((p) => comparable(c.fact, p) && within(c.fact, p))) continue;
      if (same.length === 0) {
        missing = true;
        continue;
      }
      // The sentence's amount about the same thing: the claim's words around it found around it (a table
      // row naming what the claim names is about it), an equal one first on a tie.
      const ranked = same
        .map((p) => ({ p, about: Math.max(this.overlap(c.about, p.about), sameLine ? THRESHOLDS.subject : 0), equal: equal(c.fact, p.fact) }))
        .sort((a, b) => b.about - a.about || Number(b.equal) - Number(a.equal));
      const top = ranked[0]!;
      if (top.about >= THRESHOLDS.subject) {
        if (top.equal) continue;
        return 'conflict';
      }
      // No amount of the sentence is clearly the claim's: an equal one agrees, else nothing is said.
      if (ranked.some((r) => r.equal)) continue;
      missing = true;
    }
    return missing ? 'missing' : 'match';
  }

  /** The verdict one sentence gives a claim, by the rules in the order of docs/verifier.md. */
  private compare(claim: Claim, s: Sentence): { verdict: Verdict; rule: string; score: number; own?: number } {
    let total = 0;
    let found = 0;
    let flipped = false;
    for (const stem of claim.stems) {
      const w = this.idf(stem);
      total += w;
      if (s.stems.includes(stem)) found += w;
      else if (s.context.includes(stem)) found += w * CONTEXT_WEIGHT;
      else if (this.alternativesOf(claim, stem).some((a) => s.stems.includes(a) || s.context.includes(a))) found += w * SYNONYM_WEIGHT;
      else {
        const opposite = [...(this.antonyms.get(stem) ?? [])].some((a) => s.stems.includes(a) && !claim.stems.includes(a));
        if (opposite) {
          found += w;
          flipped = true;
        }
      }
    }
    const score = total > 0 ? found / total : 0;
    // The claim's names count too once they are found: a sentence naming what the claim names is about it.
    let nameTotal = 0;
    let nameFound = 0;
    for (const stem of claim.nameStems) {
      const w = this.idf(stem);
      nameTotal += w;
      if (s.stems.includes(stem)) nameFound += w;
      else if (s.context.includes(stem)) nameFound += w * CONTEXT_WEIGHT;
    }
    const full = total + nameTotal > 0 ? (found + nameFound) / (total + nameTotal) : 0;
    const none = { verdict: 'unverifiable' as const, rule: 'none', score };
    if (Math.max(score, full) < THRESHOLDS.distinctive) return none;

    const facts = this.facts(s);
    // Names and codes: each of the claim's must be in the sentence or its context. One the document never
    // mentions makes the claim unverifiable, unless it stands where the sentence names another (a changed
    // name in what the claim says, not in what it is about) and no passage mentions it at all.
    const here = (e: Entity) => e.words.every((w) => facts.words.has(w));
    const absent = claim.entities.filter((e) => !here(e));
    // A code of the claim found only in the context, where the sentence itself states another code of the same
    // series (`FA-2025-087` in the document of `FA-2025-114`): the sentence is about that other one.
    const series = (e: Entity) => e.text.replace(/[^\p{L}]+.*$/u, '').toLowerCase();
    const ownCodes = codesOf(s.seg.text);
    for (const e of claim.entities) {
      if (e.kind !== 'code' || e.words.every((w) => this.sentenceWords(s).has(w))) continue;
      if (ownCodes.some((o) => series(o) === series(e) && series(e) !== '' && o.words.join(' ') !== e.words.join(' '))) return none;
    }
    const sameLine = s.seg.text.startsWith('|') && claim.entities.length > 0 && claim.entities.every((e) => e.words.every((w) => this.sentenceWords(s).has(w)));
    const context = this.contextFacts(s);
    const amounts = this.pair(
      claim.quantities,
      facts.quantities,
      context.quantities,
      (a, b) => (a.dimension !== null ? a.dimension === b.dimension : a.unit === b.unit),
      (a, b) => a.unit === b.unit && sameValue(a.value, b.value),
      sameLine,
    );
    const when = this.pair(claim.dates, facts.dates, context.dates, () => true, datesAgree, sameLine, (a, b) => a.from >= b.from && a.to <= b.to);
    if (absent.length > 0) {
      // A name the sentence does not hold: another name in its place, where the rest of the claim agrees (its
      // other names, its amounts and dates), is a changed name; otherwise the sentence is about something else.
      const inPredicate = absent.every((e) => claim.verbAt >= 0 && e.start > claim.verbAt);
      const otherHere = claim.entities.filter((e) => !absent.includes(e)).every(here);
      if (!inPredicate || !otherHere || score < THRESHOLDS.entity || amounts !== 'match' || when !== 'match') return none;
      facts.entities ??= entitiesOf(s.seg.text);
      const replaced = facts.entities.some((e) => e.kind === absent[0]!.kind && !claim.entities.some((c) => c.words.join(' ') === e.words.join(' ')));
      return replaced ? { verdict: 'contradicted', rule: 'entities', score } : none;
    }
    if (amounts === 'conflict' && full >= THRESHOLDS.conflict) return { verdict: 'contradicted', rule: 'numbers', score: full };
    if (when === 'conflict' && full >= THRESHOLDS.conflict) return { verdict: 'contradicted', rule: 'dates', score: full };
    // Anchored: the sentence itself holds the claim's exact figures, dates or the names it states (not only
    // its context), so fewer of the claim's other words need to be there.
    const inSentence = (e: Entity) => e.words.every((w) => this.sentenceWords(s).has(w));
    const stated = claim.entities.filter((e) => e.start > claim.verbAt);
    // With a figure or a date of the claim in the sentence, a name it states may be in the sentence's context.
    const figures = claim.quantities.length + claim.dates.length > 0;
    const anchored = (figures || stated.length > 0) && amounts === 'match' && when === 'match' && stated.every(figures ? here : inSentence);
    // A distinctive figure (four significant digits or more, `£3,108.00`) stated as the claim states it anchors more.
    const distinctive = anchored && claim.quantities.some((q) => q.fact.unit !== null && String(Math.round(Math.abs(q.fact.value) * 100)).replace(/0+$/, '').length >= 4);
    const bar = distinctive ? THRESHOLDS.distinctive : anchored ? THRESHOLDS.anchored : THRESHOLDS.support;
    if (full < Math.min(bar, THRESHOLDS.polarity)) return none;
    if (flipped) return { verdict: 'contradicted', rule: 'antonym', score: full };
    // Negation is read in the clause of the sentence that holds the claim's words, not anywhere in it.
    let clause = facts.clauses[0];
    let best = -1;
    for (const c of facts.clauses) {
      const o = this.overlap(claim.stems, c.stems);
      if (o > best + 1e-9) [best, clause] = [o, c];
    }
    const negations = facts.clauses.length > 1 && clause ? clause.negations : s.negations;
    if (claim.negations % 2 !== negations % 2) return { verdict: 'contradicted', rule: 'negation', score: full };
    if (amounts === 'missing' || when === 'missing' || full < bar) return none;
    const rule = claim.quantities.length > 0 ? 'numbers' : claim.dates.length > 0 ? 'dates' : 'overlap';
    return { verdict: 'supported', rule, score: full, own: score };
  }

  /** Whether any passage (its text or its name) holds every word of the entity. */
  private mentioned(e: Entity): boolean {
    for (let i = 0; i < this.passages.length; i++) {
      let set = this.passageWords[i];
      if (!set) {
        const p = this.passages[i]!;
        this.passageWords[i] = set = new Set(words(`${p.source}\n${p.content}`).map((w) => w.w));
      }
      if (e.words.every((w) => set.has(w))) return true;
    }
    return false;
  }

  /** The amounts and dates of a sentence's context (its document's name, title, section), read once per context. */
  private contextFacts(s: Sentence): { quantities: Quantity[]; dates: DateSpan[] } {
    let f = this.contextFactsMemo.get(s.contextText);
    if (!f) {
      const ds = dates(s.contextText);
      f = { dates: ds, quantities: quantities(s.contextText, this.stem, ds) };
      this.contextFactsMemo.set(s.contextText, f);
    }
    return f;
  }
}
