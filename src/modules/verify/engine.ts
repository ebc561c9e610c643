import { setImmediate as nextTurn } from 'node:timers/promises';
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
  conflict: 0.6,
  /** Contradicted by a negation or an antonym. */
  polarity: 0.75,
  /** Contradicted by another name in place of one of the claim's (another name of the claim is shared). */
  entity: 0.8,
  /** An unverifiable claim shows its nearest sentence from this share on. */
  nearest: 0.3,
} as const;

/** Sentences examined in full per claim, after the quick count over rare words. */
const CANDIDATES = 8;
/** A word in more sentences than this does not drive the candidate count (it still counts in the score). */
const COMMON_DF = 2000;
/** Work between two turns of the event loop. */
const SLICE_MS = 8;

interface Sentence {
  passage: number;
  seg: Segment;
  stems: string[];
  negations: number;
  facts?: Facts;
}

interface Facts {
  quantities: Quantity[];
  dates: DateSpan[];
  /** Capitalised words not opening the sentence, folded. */
  names: Set<string>;
}

interface Claim {
  seg: Segment;
  /** Stems the score counts (content words, names excluded). */
  stems: string[];
  /** Stems that find candidates (names included). */
  lookup: string[];
  names: string[];
  negations: number;
  quantities: Quantity[];
  dates: DateSpan[];
}

const MONTH_WORDS = new Set(
  'january february march april may june july august september october november december janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre monday tuesday wednesday thursday friday saturday sunday'.split(
    ' ',
  ),
);

/** Names: capitalised words that do not open the sentence, and words in capitals; the opening word too when a capitalised word follows it. */
function namesOf(text: string): string[] {
  const out: string[] = [];
  const ws = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  for (let i = 0; i < ws.length; i++) {
    const raw = ws[i]![0];
    if (raw.length > 40 || !/^\p{Lu}/u.test(raw)) continue;
    const f = fold(raw);
    if (STOP_WORDS.has(f) || MONTH_WORDS.has(f) || isNegationWord(f)) continue;
    const acronym = raw.length > 1 && raw === raw.toUpperCase() && /\p{L}/u.test(raw);
    const opening = i === 0 || /[.!?:;]\s*$/u.test(text.slice(ws[i - 1]!.index! + ws[i - 1]![0].length, ws[i]!.index));
    if (opening && !acronym && !/^\p{Lu}/u.test(ws[i + 1]?.[0] ?? '')) continue;
    out.push(f);
  }
  return out;
}

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
  private readonly passageWords: (Set<string> | undefined)[] = [];
  private readonly sentences: Sentence[] = [];
  private readonly postings = new Map<string, number[]>();
  /** Verdicts by claim text: a text repeating a claim is judged once (the offsets are the claim's own). */
  private readonly judged = new Map<string, Omit<ClaimResult, 'start' | 'end'>>();
  /** Candidate scores by sentence, reused from claim to claim. */
  private scores = new Float64Array(0);
  private lastTurn = performance.now();
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

  private contentStems(text: string): { stems: string[]; negations: number } {
    // Folded once for the whole text (offsets are not needed here): far cheaper than word by word.
    const folded = fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
    const stems: string[] = [];
    for (const w of folded) {
      const s = this.stemOf(w);
      if (s) stems.push(s);
    }
    return { stems, negations: negationCount(folded) };
  }

  async addPassages(passages: Iterable<PassageInput>): Promise<void> {
    for (const p of passages) {
      const index = this.passages.length;
      this.passages.push(p);
      this.passageWords.push(undefined);
      for (const whole of eachSentence(p.content)) {
        for (const seg of whole.text.length > MAX_QUOTE_CHARS ? pieces(whole, MAX_QUOTE_CHARS) : [whole]) this.addSentence(index, seg);
        await this.breathe();
      }
    }
  }

  private addSentence(passage: number, seg: Segment): void {
    const { stems, negations } = this.contentStems(seg.text);
    const id = this.sentences.length;
    // Distinct stems, found through the postings (a list already ending with this sentence has the stem).
    const unique: string[] = [];
    for (const s of stems) {
      let list = this.postings.get(s);
      if (!list) this.postings.set(s, (list = []));
      if (list[list.length - 1] === id) continue;
      list.push(id);
      unique.push(s);
    }
    this.sentences.push({ passage, seg, stems: unique, negations });
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
    const names = [...new Set(namesOf(seg.text))];
    const nameStems = new Set(names.map((n) => this.stem(n)));
    const { stems, negations } = this.contentStems(seg.text);
    const unique = [...new Set(stems)];
    const ds = dates(seg.text);
    return {
      seg,
      stems: unique.filter((s) => !nameStems.has(s)),
      lookup: unique,
      names,
      negations,
      dates: ds,
      quantities: quantities(seg.text, this.stem, ds),
    };
  }

  private idf(stem: string): number {
    const df = this.postings.get(stem)?.length ?? 0;
    return Math.log(1 + this.sentences.length / Math.max(df, 0.5));
  }

  private facts(s: Sentence): Facts {
    if (!s.facts) {
      const ds = dates(s.seg.text);
      s.facts = { dates: ds, quantities: quantities(s.seg.text, this.stem, ds), names: new Set(namesOf(s.seg.text)) };
    }
    return s.facts;
  }

  private wordsOfPassage(index: number): Set<string> {
    let set = this.passageWords[index];
    if (!set) this.passageWords[index] = set = new Set(words(this.passages[index]!.content).map((w) => w.w));
    return set;
  }

  /** Sentences sharing the most (weighted) rare words with the claim, its antonyms counted as shared. */
  private candidates(claim: Claim): number[] {
    const lookup = new Set(claim.lookup);
    for (const s of claim.lookup) for (const a of this.antonyms.get(s) ?? []) lookup.add(a);
    const byRarity = [...lookup]
      .filter((s) => this.postings.has(s))
      .sort((a, b) => this.postings.get(a)!.length - this.postings.get(b)!.length || (a < b ? -1 : 1));
    const scores = this.scores;
    const touched: number[] = [];
    byRarity.forEach((s, i) => {
      const list = this.postings.get(s)!;
      // Common words do not find candidates, except the rarest word of a claim made only of common ones.
      if (list.length > COMMON_DF && i > 0) return;
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
    let best: { verdict: Verdict; rule: string; score: number; id: number } | null = null;
    let nearest: { score: number; id: number } | null = null;
    const rank = (v: Verdict) => (v === 'supported' ? 2 : v === 'contradicted' ? 1 : 0);
    for (const id of this.candidates(claim)) {
      const r = this.compare(claim, this.sentences[id]!);
      if (!nearest || r.score > nearest.score) nearest = { score: r.score, id };
      if (r.verdict === 'unverifiable') continue;
      // The strongest sentence decides; on a tie an exact support wins over a conflict.
      if (!best || r.score > best.score + 1e-9 || (Math.abs(r.score - best.score) <= 1e-9 && rank(r.verdict) > rank(best.verdict))) {
        best = { ...r, id };
      }
    }
    if (best) return { ...base, verdict: best.verdict, rule: best.rule, evidence: [this.evidence(best.id, best.score)] };
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

  /** The verdict one sentence gives a claim, by the rules in the order of docs/verifier.md. */
  private compare(claim: Claim, s: Sentence): { verdict: Verdict; rule: string; score: number } {
    let total = 0;
    let found = 0;
    let flipped = false;
    for (const stem of claim.stems) {
      const w = this.idf(stem);
      total += w;
      if (s.stems.includes(stem)) found += w;
      else {
        const opposite = [...(this.antonyms.get(stem) ?? [])].some((a) => s.stems.includes(a) && !claim.stems.includes(a));
        if (opposite) {
          found += w;
          flipped = true;
        }
      }
    }
    const score = total > 0 ? found / total : 0;
    const none = { verdict: 'unverifiable' as const, rule: 'none', score };
    if (score < THRESHOLDS.conflict) return none;

    const facts = this.facts(s);
    // Amounts: a claim amount with no equal amount of the same unit where the sentence has one of that unit.
    let amountsMissing = false;
    for (const q of claim.quantities) {
      const sameUnit = facts.quantities.filter((p) => p.unit === q.unit);
      if (sameUnit.some((p) => sameValue(p.value, q.value))) continue;
      if (sameUnit.length > 0) return { verdict: 'contradicted', rule: 'numbers', score };
      amountsMissing = true;
    }
    let datesMissing = false;
    for (const d of claim.dates) {
      if (facts.dates.some((p) => datesAgree(p, d))) continue;
      if (facts.dates.length > 0) return { verdict: 'contradicted', rule: 'dates', score };
      datesMissing = true;
    }
    if (score < THRESHOLDS.polarity) return none;
    if (flipped) return { verdict: 'contradicted', rule: 'antonym', score };
    if (claim.negations % 2 !== s.negations % 2) return { verdict: 'contradicted', rule: 'negation', score };

    const passageWords = this.wordsOfPassage(s.passage);
    const missing = claim.names.filter((n) => !passageWords.has(n));
    if (missing.length > 0) {
      const shared = claim.names.some((n) => facts.names.has(n));
      const other = [...facts.names].some((n) => !claim.names.includes(n) && !claim.stems.includes(this.stem(n)));
      if (score >= THRESHOLDS.entity && shared && other) return { verdict: 'contradicted', rule: 'entities', score };
      return none;
    }
    if (amountsMissing || datesMissing || score < THRESHOLDS.support) return none;
    const rule = claim.quantities.length > 0 ? 'numbers' : claim.dates.length > 0 ? 'dates' : 'overlap';
    return { verdict: 'supported', rule, score };
  }
}
