/**
 * The independent labelled set of issue 26 (test/fixtures/quality/<half>/), scored through the real service:
 * shared by bench/quality.ts (the figures of docs/quality.md) and test/quality/tuning-half.test.ts (the
 * CI floor). Only the half asked for is read: the held-out half is opened only when a caller names it.
 *
 * - Verifier: each claim is one `POST /v1/verify` whose passages are the claim's own documents, one
 *   passage per document (its whole text, named by its file name), so that the verifier sees each
 *   document's title, numbers and parties; a claim listing no document is checked against every document
 *   of the half. Labels are what a reader concludes from those documents, which is why the half's other
 *   documents are not added (they could back or contradict a claim its label did not consider).
 * - Light: each question is one `POST /light/ask` on the built-in model (`provider: local`, the default
 *   threshold) over the workspace holding every document of the half.
 * - Retrieval: each answerable question is one `POST /v1/knowledge/query` (topK 5); found when every facts
 *   group has one alternative in the five passages' text.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `held-out-2`: a second held-out set, written later by another hand that read neither the rules nor the other halves. */
export type Half = 'tuning' | 'held-out' | 'held-out-2' | (string & {});

export interface Question {
  id: string;
  lang: string;
  kind: string;
  question: string;
  answerable: boolean;
  documents: string[];
  /** Every group must be stated by one of its alternatives. */
  facts: string[][];
}

export interface Claim {
  id: string;
  lang: string;
  kind: string;
  claim: string;
  documents: string[];
  label: 'supported' | 'contradicted' | 'unverifiable';
}

export interface LabelledHalf {
  half: Half;
  dir: string;
  documents: { name: string; text: string }[];
  questions: Question[];
  claims: Claim[];
}

const root = fileURLToPath(new URL('../../test/fixtures/quality/', import.meta.url));

/** Reads one half; nothing of the other is opened. */
export function loadHalf(half: Half): LabelledHalf {
  const dir = join(root, half);
  const corpus = join(dir, 'corpus');
  const documents = readdirSync(corpus)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(corpus, name), 'utf8') }));
  const { questions } = JSON.parse(readFileSync(join(dir, 'questions.json'), 'utf8')) as { questions: Question[] };
  const { claims } = JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8')) as { claims: Claim[] };
  return { half, dir, documents, questions, claims };
}

/** Case folded, accents kept, every run of spaces (and no-break spaces) one space. */
export const normalise = (s: string): string => s.toLowerCase().replace(/[\s\u00a0\u202f]+/g, ' ').trim();

/** Every facts group has one alternative in the text. */
export function statesFacts(text: string, facts: string[][]): boolean {
  const t = normalise(text);
  return facts.every((group) => group.some((alt) => t.includes(normalise(alt))));
}

/** A document named by a question or claim, matched with or without its `.md` and folder. */
function documentNamed(half: LabelledHalf, name: string) {
  const base = name.replace(/^.*\//, '');
  return half.documents.find((d) => d.name === base || d.name === `${base}.md` || d.name.replace(/\.md$/, '') === base);
}

interface Client {
  baseUrl: string;
  key: string;
}

/** Runs `fn` on every item, `CONCURRENCY` at a time, results in the items' order. */
const CONCURRENCY = 4;
async function each<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

async function post<T>(c: Client, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${c.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${c.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Uploads every document of the half over HTTP (the caller then runs the ingestion). */
export async function uploadHalf(c: Client, half: LabelledHalf): Promise<void> {
  for (const d of half.documents) {
    const form = new FormData();
    form.append('file', new Blob([d.text], { type: 'text/markdown' }), d.name);
    const res = await fetch(`${c.baseUrl}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${c.key}` }, body: form });
    if (res.status !== 202) throw new Error(`upload ${d.name}: ${res.status} ${await res.text()}`);
  }
}

export interface ClaimOutcome {
  claim: Claim;
  got: string;
  rule: string;
  evidence: string | null;
}

export async function runClaims(c: Client, half: LabelledHalf): Promise<ClaimOutcome[]> {
  return each(half.claims, async (claim) => {
    const docs = claim.documents.map((n) => documentNamed(half, n)).filter((d) => d !== undefined);
    const passages = (docs.length > 0 ? docs : half.documents).map((d) => ({ source: d.name, content: d.text }));
    const { report } = await post<{ report: { claims: { verdict: string; rule: string; evidence: { quote: string }[] }[] } }>(c, '/v1/verify', {
      text: claim.claim,
      passages,
    });
    // A claim the verifier cuts in several is judged by its weakest part: any contradiction, else any
    // unverifiable part, else supported.
    const verdicts = report.claims.map((x) => x.verdict);
    const got = verdicts.includes('contradicted') ? 'contradicted' : verdicts.includes('unverifiable') || verdicts.length === 0 ? 'unverifiable' : 'supported';
    const decisive = report.claims.find((x) => x.verdict === got) ?? report.claims[0];
    return { claim, got, rule: decisive?.rule ?? 'none', evidence: decisive?.evidence[0]?.quote ?? null };
  });
}

export interface QuestionOutcome {
  question: Question;
  refused: boolean;
  reason: string | null;
  answer: string;
  rightFact: boolean;
}

export async function runQuestions(c: Client, half: LabelledHalf): Promise<QuestionOutcome[]> {
  return each(half.questions, async (q) => {
    const body = await post<{ answer: string; refused: boolean; refusal: { reason: string } | null }>(c, '/light/ask', { question: q.question, provider: 'local' });
    return { question: q, refused: body.refused, reason: body.refusal?.reason ?? null, answer: body.answer, rightFact: !body.refused && statesFacts(body.answer, q.facts) };
  });
}

export async function runRecall(c: Client, half: LabelledHalf): Promise<Map<string, boolean>> {
  const answerable = half.questions.filter((x) => x.answerable);
  const found = await each(answerable, async (q) => {
    const { results } = await post<{ results: { text: string }[] }>(c, '/v1/knowledge/query', { query: q.question, topK: 5 });
    return statesFacts(results.map((r) => r.text).join('\n'), q.facts);
  });
  return new Map(answerable.map((q, i) => [q.id, found[i]!]));
}

export interface VerifierFigures {
  n: number;
  accuracy: number;
  supportedPrecision: number | null;
  contradictedPrecision: number | null;
  predicted: { supported: number; contradicted: number; unverifiable: number };
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);

export function verifierFigures(outcomes: ClaimOutcome[]): VerifierFigures {
  const right = outcomes.filter((o) => o.got === o.claim.label).length;
  const predicted = (v: string) => outcomes.filter((o) => o.got === v);
  const precision = (v: string) => ratio(predicted(v).filter((o) => o.claim.label === v).length, predicted(v).length);
  return {
    n: outcomes.length,
    accuracy: ratio(right, outcomes.length) ?? 0,
    supportedPrecision: precision('supported'),
    contradictedPrecision: precision('contradicted'),
    predicted: { supported: predicted('supported').length, contradicted: predicted('contradicted').length, unverifiable: predicted('unverifiable').length },
  };
}

export interface LightFigures {
  answerable: number;
  unanswerable: number;
  /** Answerable questions answered, over answerable questions. */
  answered: number | null;
  /** Unanswerable questions refused, over unanswerable questions. */
  refused: number | null;
  /** Answerable questions answered with every facts group stated, over answerable questions answered. */
  rightFact: number | null;
}

export function lightFigures(outcomes: QuestionOutcome[]): LightFigures {
  const a = outcomes.filter((o) => o.question.answerable);
  const u = outcomes.filter((o) => !o.question.answerable);
  const answered = a.filter((o) => !o.refused);
  return {
    answerable: a.length,
    unanswerable: u.length,
    answered: ratio(answered.length, a.length),
    refused: ratio(u.filter((o) => o.refused).length, u.length),
    rightFact: ratio(answered.filter((o) => o.rightFact).length, answered.length),
  };
}

export function recallFigure(found: Map<string, boolean>, ids?: Set<string>): number | null {
  const xs = [...found].filter(([id]) => !ids || ids.has(id));
  return ratio(xs.filter(([, f]) => f).length, xs.length);
}

/** The kinds present, in the order of the issue, then any other. */
export function kindsOf<T extends { kind: string }>(items: T[], order: string[]): string[] {
  const present = new Set(items.map((i) => i.kind));
  return [...order.filter((k) => present.has(k)), ...[...present].filter((k) => !order.includes(k)).sort()];
}

export const QUESTION_KINDS = ['reworded', 'synonym', 'cross-lingual', 'numeric-date', 'near-miss', 'absent-entity', 'outside-knowledge'];
export const CLAIM_KINDS = ['amount', 'date', 'name', 'negation', 'unit-currency', 'paraphrase', 'unverifiable'];
