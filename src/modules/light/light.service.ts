/**
 * Light (issue 16, docs/light.md): answers only from the workspace's documents, or one dossier's, with
 * `[n]` citations; refuses, naming what was searched, when the documents do not cover the question; and
 * on request searches the web with a redacted query. Every answer is metered through the request's
 * admission and gets a proof certificate, refusals included (a refusal before any model ran consumes
 * nothing).
 */
import type { ServiceContext } from '../../core/context.js';
import { answeringSentences, askedOf, headFields, headForms, holdsTerm, kinForms, relatedWords, typeWords, type Asked } from '../../lib/language/asked.js';
import { specificTermsOf, type Entity } from '../../lib/language/entities.js';
import { errors } from '../../errors/index.js';
import type { KnowledgeUsedItem } from '../chat/index.js';
import { findDossier, dossierNames, unknownDossier } from '../knowledge/index.js';
import { KnowledgeCollection, KnowledgeSource } from '../knowledge/index.js';
import type { SearchScope } from '../knowledge/index.js';
import { searchItems } from '../knowledge/index.js';
import { indexText } from '../knowledge/index.js';
import { MeteredModel } from '../models/index.js';
import { usageOf, type CompletionResult, type ModelProvider, type TokenUsage } from '../models/index.js';
import { canonicalJson, issueProof } from '../proofs/index.js';
import { assertCanConsume } from '../usage/index.js';
import { coverageOf, documentFrequencies, termGroups, type TermGroup } from './coverage.js';
import { citedRefs, declined, groundedMessages, type NumberedPassage } from './grounded.js';
import {
  AskSchema,
  WebAskSchema,
  type Citation,
  type LightAnswer,
  type Refusal,
  type RefusalReason,
  type Searched,
  type WebResult,
} from './light.schemas.js';
import { redactQuery } from './redaction.js';
import { searchWeb } from './web-search.js';

export const ASK_ROUTE = 'POST /light/ask';
export const WEB_ROUTE = 'POST /light/web';
/** Passages read per question. */
export const ASK_TOP_K = 6;
const MAX_ANSWER_TOKENS = 800;

const ASK_INSTRUCTIONS = "You answer questions for the members of a workspace from the workspace's own documents.";
const WEB_INSTRUCTIONS = 'You answer a question from web search results. The numbered passages are the results: title, address and extract.';

/** `auto` the default model, `local` the built-in one, else a configured provider by name (400 `invalid_provider`). */
export function resolveProvider(ctx: ServiceContext, name: string | null | undefined): ModelProvider {
  const models = ctx.app.models;
  if (!name || name === 'auto') return models.default();
  if (name === 'local') return models.local();
  const found = models.get(name);
  if (!found) throw errors.invalidProvider(name, ['auto', 'local', ...models.all().map((p) => p.name).filter((n) => n !== 'local')]);
  return found;
}

/** What a question found in its scope: what was searched, the passages, and how much of the question the best one covers. */
export interface Found {
  searched: Searched;
  passages: Passage[];
  coverage: number;
  /** Share of the question's weight held by the heaviest word the best passage lacks (coverage.ts). */
  missing: number;
}


/**
 * Sources holding every word of each name (one statement): a name may be stated once in a document (its
 * parties, its title) and still be what each of its passages is about.
 */
async function sourcesNaming(ctx: ServiceContext, names: Entity[]): Promise<Set<string>[]> {
  if (names.length === 0) return [];
  const parts = names.map((_n, i) => `(select coalesce(array_agg(distinct source_id), '{}') from knowledge_chunk where workspace_id = ? and search_vector @@ to_tsquery('simple', ?)) as n${i}`);
  const params: unknown[] = [];
  // Fifth round (precision): a name of several words is said as one run (`Thermo Centre`, not `Thermo Loire` and `Élec'Centre`).
  for (const n of names) params.push(ctx.caller.workspace.id, nameRun(n).map((w) => `'${w.replace(/'/g, '')}'`).join(' <-> '));
  const [row] = await ctx.em.fork().execute<Record<string, string[] | string>[]>(`select ${parts.join(', ')}`, params);
  return names.map((_n, i) => {
    const v = row?.[`n${i}`];
    return new Set(Array.isArray(v) ? v : typeof v === 'string' ? v.replace(/^\{|\}$/g, '').split(',').filter(Boolean) : []);
  });
}

/**
 * The words of a name as one run, as it is written (`Fournil de Margaux`, `Soleil d'Armor`, `Bank of England`): the
 * name's own words leave out the function words inside it, which the document writes between them all the same.
 */
export function nameRun(name: Entity): string[] {
  const run = indexText(name.text).split(' ').filter(Boolean);
  return run.length >= name.words.length ? run : name.words;
}

/** At most this many characters of a document's head are read (its fields, not a long opening section). */
const HEAD_CHARS = 1_500;

/**
 * The head of each document (eighth round): the `Label: value` fields of its first passage when that passage is
 * its top section, before any sub-heading (`Policy number: …`, `Devis n° : …`, `Period: …`; headFields). A document
 * states its number, parties and period there once, and each of its rows and sentences is about them (asked.ts,
 * SentenceContext).
 */
async function documentHeads(ctx: ServiceContext, sourceIds: string[]): Promise<Map<string, string>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await ctx.em.fork().execute<{ source_id: string; section: string; text: string }[]>(
    `select distinct on (source_id) source_id, section, text from knowledge_chunk where workspace_id = ? and source_id in (${sourceIds.map(() => '?').join(', ')}) order by source_id, ordinal`,
    [ctx.caller.workspace.id, ...sourceIds],
  );
  const out = new Map<string, string>();
  for (const r of rows) {
    const fields = r.section.includes(' > ') ? '' : headFields(r.text.slice(0, HEAD_CHARS));
    if (fields) out.set(r.source_id, fields);
  }
  return out;
}

/** A retrieved passage with its document's head (documentHeads), when it has one. */
export type Passage = KnowledgeUsedItem & { document?: string };

/** What the gate reads of a question, once. */
export interface Gate {
  terms: Entity[];
  namedIn: Set<string>[];
  asked: Asked;
  forms: Set<string>;
  /** The head's WordNet kin (kinForms), read only with the retrieval's evidence. */
  kin: Set<string>;
}

export function gateOf(question: string, namedIn: Set<string>[] = []): Gate {
  const asked = askedOf(question);
  return { terms: specificTermsOf(question), namedIn, asked, forms: headForms(asked), kin: kinForms(asked) };
}

/**
 * How far ahead of the second passage the first must rank for the retrieval's evidence to count (its
 * similarity at least this many times the second's).
 */
export const EVIDENCE_MARGIN = 1.5;
/** The coverage (coverage.ts) the first passage needs for the retrieval's evidence to count. */
export const EVIDENCE_COVERAGE = 0.6;

/** Whether the search ranked its first passage ahead of the others by a clear margin. */
export function clearlyFirst(found: Pick<KnowledgeUsedItem, 'similarity'>[]): boolean {
  const [first, second] = found;
  if (!first || !(first.similarity > 0)) return false;
  return !second || first.similarity >= EVIDENCE_MARGIN * second.similarity;
}

/**
 * Whether a passage can answer the question (docs/light.md, "The gate"): it holds the question's codes
 * and figures (in its text, its section or its document's name), its document names what the question
 * names, and one of its sentences answers what is asked (asked.ts): a value of the asked type and kind,
 * with the head of the question and its codes and figures in that sentence or its immediate context.
 */
export function answers(p: Pick<Passage, 'text' | 'section' | 'sourceName' | 'sourceId' | 'document'>, gate: Gate, evidence = false, frame = false): boolean {
  // The document's head (its number, parties, period) counts for each of its passages.
  const flat = ` ${indexText(`${p.sourceName} \n ${p.section} \n ${p.text}${p.document ? ` \n ${p.document}` : ''}`)} `;
  const words = new Set(flat.split(' '));
  let name = 0;
  // A name that is the word of one of the question's codes (`Line` of *Line A*) is checked as that code: a document of the
  // other language writes it translated (holdsTerm: *ligne A*).
  const codeWords = new Set(gate.terms.filter((t) => t.kind === 'code' && t.words.length > 1).flatMap((t) => t.words));
  for (const t of gate.terms) {
    if (t.kind === 'name' && t.words.every((w) => codeWords.has(w))) {
      name++;
      continue;
    }
    // A code or a figure as written (`aqf 50` for AQF-50, not an `aqf` here and a `50` there); a name's words anywhere.
    // A file name writes `aq200` for AQ-200.
    // A name of several words as one run of words (fifth round: `Thermo Centre` is not `Thermo Loire` and `Élec'Centre`).
    const inPassage = t.kind === 'code' ? holdsTerm(t, flat) : t.words.length === 1 ? words.has(t.words[0]!) : flat.includes(` ${nameRun(t).join(' ')} `);
    const inDocument = t.kind === 'name' && gate.namedIn[name]?.has(p.sourceId);
    if (t.kind === 'name') name++;
    if (!inPassage && !inDocument) return false;
  }
  // Terms all present: the first passage by a clear margin has the retrieval's evidence (asked.ts, Evidence).
  return answeringSentences(gate.asked, p, gate.forms, evidence ? { kin: gate.kin } : undefined, frame).length > 0;
}

/**
 * The question's groups without the words that only name the kind of value asked (`loud`, `quietest`:
 * typeWords) when no passage of the workspace holds them: the documents say it with the value itself
 * (`24 dB`). A type word the documents do use stays a word to cover.
 */
function withoutTypeWords(asked: Asked, groups: TermGroup[], freq: { total: number; df: number[] }): { groups: TermGroup[]; freq: { total: number; df: number[] } } {
  const said = [...typeWords(asked)];
  const keep = groups.map((g, i) => (freq.df[i] ?? 0) > 0 || !said.some((w) => w === g.prefix || (g.prefix.length >= 4 && w.startsWith(g.prefix))));
  if (!keep.some(Boolean)) return { groups, freq };
  return { groups: groups.filter((_g, i) => keep[i]), freq: { total: freq.total, df: freq.df.filter((_d, i) => keep[i]) } };
}

/**
 * The passages that can answer (answers), numbered; the first found has the retrieval's evidence when clearlyFirst and
 * covering EVIDENCE_COVERAGE. With `frame` (twelfth round), a sentence may answer by the question's frame where its head
 * is not said (asked.ts, framed): read only when no passage answers otherwise.
 */
function answering(found: Passage[], gate: Gate, groups: TermGroup[], freq: { total: number; df: number[] }, frame = false): Passage[] {
  const evidence = clearlyFirst(found) && coverageOf(groups, freq, found.slice(0, 1)).coverage >= EVIDENCE_COVERAGE;
  return found.filter((p, i) => answers(p, gate, evidence && i === 0, frame)).map((p, i) => ({ ...p, ref: i + 1 }));
}

/** At most this many paraphrases of the head added to the second search. */
const PARAPHRASE_QUERY_WORDS = 6;

/** The question with the paraphrases of its head it does not already hold, or null when there are none. */
function paraphraseQuery(question: string, head: string): string | null {
  const have = new Set(indexText(question).split(' '));
  const add = relatedWords(head).filter((w) => !have.has(w) && w.length >= 2).slice(0, PARAPHRASE_QUERY_WORDS);
  return add.length > 0 ? `${question} ${add.join(' ')}` : null;
}

/** Searches the workspace (or the dossier) for the question, keeps the passages that can answer it, and measures their coverage (coverage.ts). */
export async function searchForQuestion(
  ctx: ServiceContext,
  opts: { question: string; dossier: KnowledgeCollection | null; topK?: number },
): Promise<Found> {
  const workspaceId = ctx.caller.workspace.id;
  const scope: SearchScope = opts.dossier ? { kind: 'some', sourceIds: [], collectionIds: [opts.dossier.id] } : { kind: 'workspace' };
  const all = termGroups(opts.question);
  const terms = specificTermsOf(opts.question);
  const heads = new Map<string, string>();
  // Each passage with its document's head (documentHeads), read once per document.
  const search = async (query: string): Promise<Passage[]> => {
    const hits = await searchItems({ ...ctx, em: ctx.em.fork() }, { workspaceId, query, topK: opts.topK ?? ASK_TOP_K, scope });
    const unread = [...new Set(hits.map((h) => h.sourceId))].filter((id) => !heads.has(id));
    for (const [id, head] of await documentHeads(ctx, unread)) heads.set(id, head);
    return hits.map((h) => (heads.has(h.sourceId) ? { ...h, document: heads.get(h.sourceId)! } : h));
  };
  const [documents, first, allFreq, namedIn] = await Promise.all([
    ctx.em.fork().count(KnowledgeSource, { workspaceId, status: 'ready', ...(opts.dossier ? { collectionId: opts.dossier.id } : {}) }),
    search(opts.question),
    documentFrequencies(ctx.em.fork(), workspaceId, all),
    sourcesNaming(ctx, terms.filter((t) => t.kind === 'name')),
  ]);
  const gate = { ...gateOf(opts.question, namedIn), terms };
  const { groups, freq } = withoutTypeWords(gate.asked, all, allFreq);
  let found = first;
  let passages = answering(found, gate, groups, freq);
  // No passage answers: search again with the paraphrases of what is asked (`testers` finds the `QA engineers`).
  const extra = passages.length === 0 && gate.asked.head ? paraphraseQuery(opts.question, gate.asked.head) : null;
  if (extra) {
    const again = await search(extra);
    const seen = new Set(again.map((p) => p.chunkId));
    found = [...again, ...first.filter((p) => !seen.has(p.chunkId))];
    passages = answering(again, gate, groups, freq);
  }
  // Still none: the question's frame (asked.ts, framed) on the passages its own words found.
  if (passages.length === 0 && gate.asked.frame) {
    passages = answering(first, gate, groups, freq, true);
    if (passages.length > 0) found = first;
  }
  return {
    searched: {
      scope: opts.dossier ? 'dossier' : 'workspace',
      dossierId: opts.dossier?.id ?? null,
      dossierName: opts.dossier?.name ?? null,
      documents,
      passagesFound: found.length,
      query: opts.question,
    },
    passages,
    ...coverageOf(groups, freq, passages),
  };
}

function whereSearched(s: Searched): string {
  const where = s.scope === 'dossier' ? `the dossier "${s.dossierName}"` : "the workspace's documents";
  return `${where} (${s.documents} document${s.documents === 1 ? '' : 's'})`;
}

function refusalOf(reason: RefusalReason, found: Found, threshold: number): Refusal {
  const where = whereSearched(found.searched);
  const message =
    reason === 'no_documents'
      ? `There is no ready document in ${where}: nothing to answer from.`
      : reason === 'model_declined' || reason === 'uncited'
        ? `The passages found in ${where} do not answer this question.`
        : `The documents searched, ${where}, do not cover this question.`;
  return { reason, message, coverage: found.coverage, threshold, searched: found.searched };
}

export const toCitation = (p: KnowledgeUsedItem): Citation => ({
  ref: p.ref,
  sourceId: p.sourceId,
  sourceName: p.sourceName,
  section: p.section,
  page: p.page,
  chunkPreview: p.chunkPreview,
  similarity: p.similarity,
  chunkId: p.chunkId,
  collectionId: p.collectionId ?? null,
  dossierName: p.dossierName ?? null,
  text: p.text,
});

const numbered = (p: Passage): NumberedPassage => ({ ref: p.ref, text: p.text, sourceName: p.sourceName, section: p.section, ...(p.document ? { document: p.document } : {}) });

/** Runs the model once on the admission; an answer that fails after the model ran is metered on what ran. */
async function answerOnce(
  ctx: ServiceContext,
  run: MeteredModel,
  req: ReturnType<typeof groundedMessages>,
): Promise<CompletionResult> {
  try {
    const result = await run.call({ messages: req.messages, material: req.material, temperature: 0.1, maxTokens: MAX_ANSWER_TOKENS });
    await run.record(result.model);
    return result;
  } catch (err) {
    await run.recordUnfinished(ctx.log);
    throw err;
  }
}

async function certify(
  ctx: ServiceContext,
  route: string,
  opts: { provider: string; model: string; request: unknown; answer: Omit<LightAnswer, 'proofId'>; usage: TokenUsage },
): Promise<string> {
  const { id } = await issueProof(ctx, {
    route,
    modelAddress: opts.provider,
    model: opts.model,
    request: opts.request,
    answer: canonicalJson({ answer: opts.answer.answer, refused: opts.answer.refused, citations: opts.answer.citations.map((c) => c.chunkId) }),
    usage: opts.usage,
  });
  return id;
}

/**
 * `POST /light/ask`: searches, refuses without a model when the best passage covers less of the question
 * than the measured threshold, else asks the model for a cited answer from the passages; an answer that
 * declines or cites nothing is a refusal too. Exported for the widget chat of the light family.
 */
export async function ask(ctx: ServiceContext, input: unknown): Promise<LightAnswer> {
  const q = AskSchema.parse(input ?? {});
  const provider = resolveProvider(ctx, q.provider);
  let dossier: KnowledgeCollection | null = null;
  if (q.dossierId) {
    dossier = await findDossier(ctx, q.dossierId);
    if (!dossier) throw unknownDossier();
  }
  const admission = await assertCanConsume(ctx, { feature: 'gateway' });
  const threshold = ctx.app.light.minCoverage;
  const found = await searchForQuestion(ctx, { question: q.question, dossier });
  const request = { question: q.question, history: q.history ?? [], dossierId: q.dossierId ?? null, provider: q.provider ?? 'auto' };

  const refuse = async (reason: RefusalReason, model: string | null, usage: TokenUsage): Promise<LightAnswer> => {
    const refusal = refusalOf(reason, found, threshold);
    const answer = { answer: refusal.message, refused: true, refusal, citations: [], provenance: { searched: found.searched, documents: [], webResults: [], webQuery: null }, model, usage };
    return { ...answer, proofId: await certify(ctx, ASK_ROUTE, { provider: request.provider, model: model ?? 'none', request, answer, usage }) };
  };

  if (found.searched.documents === 0) return refuse('no_documents', null, usageOf(0, 0));
  if (found.searched.passagesFound === 0) return refuse('no_passages', null, usageOf(0, 0));
  if (found.coverage < threshold || found.missing > ctx.app.light.maxMissing) return refuse('not_covered', null, usageOf(0, 0));

  const run = new MeteredModel(provider, { meter: admission, route: ASK_ROUTE, signal: ctx.signal });
  const result = await answerOnce(ctx, run, groundedMessages({ instructions: ASK_INSTRUCTIONS, passages: found.passages.map(numbered), question: q.question, history: q.history ?? [] }));
  if (declined(result.content)) return refuse('model_declined', result.model, run.usage);
  const refs = citedRefs(result.content, found.passages.length);
  if (refs.length === 0) return refuse('uncited', result.model, run.usage);
  const citations = refs.map((r) => toCitation(found.passages[r - 1]!));
  const documents = [...new Map(citations.map((c) => [c.sourceId, { sourceId: c.sourceId, sourceName: c.sourceName, collectionId: c.collectionId, dossierName: c.dossierName }])).values()];
  const answer = {
    answer: result.content.trim(),
    refused: false,
    refusal: null,
    citations,
    provenance: { searched: found.searched, documents, webResults: [], webQuery: null },
    model: result.model,
    usage: run.usage,
  };
  return { ...answer, proofId: await certify(ctx, ASK_ROUTE, { provider: request.provider, model: result.model, request, answer, usage: run.usage }) };
}

/**
 * `POST /light/web`: the explicit web search after a refusal. The query is redacted before it leaves
 * (redaction.ts); the model answers from the results with `[n]` citations, which `provenance.webResults`
 * lists. 501 `web_search_not_configured` without `SVC_WEB_SEARCH_URL`; 502 `web_search_failed`.
 */
export async function askWeb(ctx: ServiceContext, input: unknown): Promise<LightAnswer> {
  const q = WebAskSchema.parse(input ?? {});
  const provider = resolveProvider(ctx, q.provider);
  const endpoint = ctx.app.light.webSearchUrl;
  if (!endpoint) throw errors.webSearchNotConfigured();
  const admission = await assertCanConsume(ctx, { feature: 'gateway' });
  const webQuery = redactQuery(q.question, await dossierNames(ctx));
  const hits = webQuery ? await searchWeb(ctx, endpoint, webQuery, ctx.app.light.webSearchTimeoutMs) : [];
  const webResults: WebResult[] = hits.map((h, i) => ({ ref: i + 1, title: h.title, url: h.url, snippet: h.snippet }));
  const request = { question: q.question, provider: q.provider ?? 'auto' };
  const base = { citations: [], refusal: null };
  const finish = async (answer: Omit<LightAnswer, 'proofId'>, model: string): Promise<LightAnswer> => ({
    ...answer,
    proofId: await certify(ctx, WEB_ROUTE, { provider: request.provider, model, request, answer, usage: answer.usage }),
  });
  const refusedWith = (reason: RefusalReason, used: WebResult[], model: string | null, usage: TokenUsage) => {
    const searched: Searched = { scope: 'workspace', dossierId: null, dossierName: null, documents: 0, passagesFound: hits.length, query: webQuery };
    const message = reason === 'no_web_results' ? 'The web search found nothing for this question.' : 'The web results do not answer this question.';
    return finish(
      {
        ...base,
        answer: message,
        refused: true,
        refusal: { reason, message, coverage: 0, threshold: 0, searched },
        provenance: { searched: null, documents: [], webResults: used, webQuery },
        model,
        usage,
      },
      model ?? 'none',
    );
  };
  if (webResults.length === 0) return refusedWith('no_web_results', [], null, usageOf(0, 0));
  const run = new MeteredModel(provider, { meter: admission, route: WEB_ROUTE, signal: ctx.signal });
  const passages = webResults.map((r) => ({ ref: r.ref, text: r.snippet || r.title, sourceName: r.title, section: r.url }));
  const result = await answerOnce(ctx, run, groundedMessages({ instructions: WEB_INSTRUCTIONS, passages, question: q.question }));
  const refs = citedRefs(result.content, webResults.length);
  if (declined(result.content) || refs.length === 0) return refusedWith(declined(result.content) ? 'model_declined' : 'uncited', webResults, result.model, run.usage);
  return finish(
    {
      ...base,
      answer: result.content.trim(),
      refused: false,
      provenance: { searched: null, documents: [], webResults: refs.map((r) => webResults[r - 1]!), webQuery },
      model: result.model,
      usage: run.usage,
    },
    result.model,
  );
}
