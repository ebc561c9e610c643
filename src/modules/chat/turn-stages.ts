/**
 * The stages of a chat turn, in order (docs/chat.md): planning (auto-pick only), prepare, retrieval,
 * masking, consultation, reflection, generation, extraction, then save, metering and the certificate
 * side by side, and the result. Each is a function of the turn's state so far (turn-state.ts) that
 * returns what it adds; a stage that runs reports itself as `stage` events.
 */
import { forkedContext, type ServiceContext } from '../../core/context.js';
import { errors, isDomainError, toDomainError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { isPoste, type AgentPersona } from '../agents/index.js';
import { agentNotFound } from '../agents/index.js';
import { MeteredModel } from '../models/index.js';
import { foldText } from '../models/index.js';
import { pendingProof } from '../proofs/index.js';
import { preparedSql } from '../../db/sql.js';
import { assertCanConsume, recordStatement, type Admission, type AdmissionCarrier } from '../usage/index.js';
import { planAgent } from './auto-pick.js';
import type { ChatTurnDone, Consultation, Mood } from './chat.schemas.js';
import { askColleague, consultable, consultToolDef, MAX_CONSULTATIONS, namedColleagues } from './consultation.js';
import { contextUsedBlocks, renderContextBlocks } from './context-blocks.js';
import { extractFacts } from './extraction.js';
import { generate, type ConsultHandler } from './generation.js';
import { memoriesFromFacts, memoriesFromMessage, rankMemories } from './memory.js';
import { deriveMood } from './mood.js';
import { buildPrompt } from './prompt.js';
import { isSmallTalk, reflect } from './reflection.js';
import { knowledgeUsedOf, retrievePassages, topKFor } from './retrieval.js';
import { historyOf, previousMood, sessionNotFound, sessionTitle } from './sessions.service.js';
import { exchangeStatement, exchangeWritten, readTurn, writeExchange, type AlongsideStatement, type ExchangeWrite, type TurnReadQuery, type TurnReads } from './turn.repository.js';
import {
  certified,
  type Admitted,
  type AutoPick,
  type Consulted,
  type Extracted,
  type Generated,
  type Masked,
  type PendingTurn,
  type Prepared,
  type Reflected,
  type Retrieved,
  type Settled,
  type TurnInputs,
} from './turn-state.js';
import { CHAT_FAILED, TurnModel } from './turn-model.js';

export const NO_AGENTS = 'No agents available in this workspace';

/** The turn's model on its admission: every call of the turn is metered as one answer through it. */
function admitted(turn: TurnInputs, admission: Admission): Admitted {
  const { ctx, provider, opts } = turn;
  const run = new MeteredModel(provider, { meter: admission, route: opts.route, signal: ctx.signal });
  return { admission, model: new TurnModel(run, ctx.signal, ctx.log) };
}

/**
 * Runs `fn`; when it fails after a model ran, the turn is metered on what ran (an interrupted call
 * counts the prompt it sent and the text it had received). Nothing ran: nothing is recorded, so
 * refusals before the model consume nothing.
 */
export async function meteredUntilDone<T>(model: TurnModel | undefined, log: ServiceContext['log'], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await model?.run.recordUnfinished(log);
    throw err;
  }
}

/**
 * Auto-pick, before any stream: lists the agents (404 when none), admits the turn (a refusal is kept
 * for the stream to report; a changed key starts the request again first) and plans the agent (500 `Agent
 * planning failed`). The agents' list and the admission are one statement when the admission can ride in it.
 */
export async function autoPick(turn: TurnInputs): Promise<AutoPick> {
  const { ctx, input, masker, stages } = turn;
  // The workspace's agents as personas (the turn's read, asking for its roster alone), carrying the admission
  // when it can (a plain auto-pick turn's, with its rates): one statement instead of two, and no entity mapped.
  const carrier = readCarrier();
  const admitting = settle(assertCanConsume(ctx, { feature: 'chat', carrier: carrier.carrier }));
  const roster = await settle(readCarried(ctx, await carrier.handed, { ...NOTHING_ELSE, agents: true }));
  const admission = await admitting;
  // A caller whose key changed starts the request again (with a lookup) before anything else is decided.
  if (!admission.ok && !isDomainError(admission.error)) throw admission.error;
  if (!roster.ok) throw roster.error;
  const agents = roster.value.agents;
  // Postes cannot be chatted with: a workspace of postes only has no agent to pick.
  if (!agents.some((a) => !isPoste(a))) throw errors.notFound('agent', null, NO_AGENTS);
  if (!admission.ok) return { agents, refusal: admission.error };
  const admit = admitted(turn, admission.value);
  const plan = await meteredUntilDone(admit.model, ctx.log, () =>
    stages.run('planning', () => planAgent(admit.model, agents, input.message, masker)),
  );
  return { agents, admitted: admit, plan };
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function settle<T>(promise: Promise<T>): Promise<Outcome<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** The workspace's tools are offered: asked for (the default) and the model can call them. */
const offersTools = (turn: TurnInputs): boolean => turn.input.tools.enabled && turn.provider.supportsTools;

/** No stored id holds a NUL character (PostgreSQL refuses it in a parameter): such an id finds nothing. */
const storable = (id: string | undefined): string | undefined => (id === undefined || id.includes('\u0000') ? undefined : id);

/** The turn's read beside its admission, each settled: what `prepare` decides on (`lookUp`). */
export interface TurnLookup {
  readonly reads: Outcome<TurnReads>;
  readonly admission: Outcome<Admitted>;
}

/**
 * The turn's one read, beside its admission (with the request's rates on a turn that defers them: the plain
 * turns, and the streamed ones for a fixed agent). Never rejects: `prepare` raises what either refuses.
 */
export async function lookUp(turn: PendingTurn): Promise<TurnLookup> {
  const { ctx, input, opts, pick } = turn;
  const planned = pick && 'plan' in pick ? pick : undefined;
  const agentId = planned?.plan.agent.id ?? opts.agentId ?? '';
  // The admission's statement rides in the read when it can (`AdmissionCarrier`): the read waits until the
  // admission has said whether it does, before any statement of either (a few microtasks; a key with a ceiling
  // whose month total is not cached reads it first).
  const carrier = planned ? undefined : readCarrier();
  const admission = planned
    ? Promise.resolve({ ok: true as const, value: planned.admitted })
    : settle(assertCanConsume(forkedContext(ctx), { feature: 'chat', carrier: carrier!.carrier }).then((a) => admitted(turn, a)));
  const carried = carrier ? await carrier.handed : undefined;
  const reads = await settle(
    readCarried(ctx, carried, {
      agentId: storable(agentId) ?? '',
      sessionId: storable(input.sessionId),
      agents: pick === undefined,
      recall: opts.recall !== false,
      links: input.knowledge.enabled,
      tools: offersTools(turn),
    }),
  );
  return { reads, admission: await admission };
}

/** A read asking for nothing: each caller names what it wants. */
const NOTHING_ELSE = { agentId: '', agents: false, recall: false, links: false, tools: false } as const;

/** The turn's read, carrying the admission's statement when handed one (then answered with its value, or failed). */
function readCarried(ctx: ServiceContext, carried: CarriedAdmission | undefined, q: Omit<TurnReadQuery, 'workspaceId' | 'userId'>): Promise<TurnReads> {
  // The ORM's EntityManager serves for its connection: the read maps no entity (personas and history rows are
  // plain values), so forking one per turn bought nothing (issue 28: 1.9 % of a one-client turn's busy CPU).
  return readTurn(ctx.app.orm.em, { ...q, workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id }, carried?.statement).then(
    (read) => {
      carried?.answer(read.carried);
      return read;
    },
    (err: unknown) => {
      carried?.fail(err);
      throw err;
    },
  );
}

/** The admission's statement handed to the turn's read, and how to answer it. */
interface CarriedAdmission {
  statement: AlongsideStatement;
  answer: (value: unknown) => void;
  fail: (err: unknown) => void;
}

/** The read's side of `AdmissionCarrier`: `handed` settles with the admission's statement, or undefined when it goes alone. */
function readCarrier(): { carrier: AdmissionCarrier; handed: Promise<CarriedAdmission | undefined> } {
  let hand!: (carried: CarriedAdmission | undefined) => void;
  const handed = new Promise<CarriedAdmission | undefined>((resolve) => (hand = resolve));
  return {
    handed,
    carrier: {
      carry: (statement) => new Promise((answer, fail) => hand({ statement, answer, fail })),
      none: () => hand(undefined),
    },
  };
}

/**
 * What the admission refuses before every refusal of the read: a key refused (401/403), a rate (429), a
 * caller made from memory whose key changed (the request starts again with a lookup), a failure; only its
 * 402s come after the read's refusals. A streamed turn raises it before its stream opens.
 */
export function admissionRefusal(lookup: TurnLookup): unknown {
  const { admission } = lookup;
  return !admission.ok && toDomainError(admission.error).error.status !== 402 ? admission.error : undefined;
}

/**
 * Resolves the agent, the session and the admission, and reads what the prompt needs. The reads are one
 * statement (turn.repository.ts), beside the admission (with the request's rates, on a plain turn): `lookUp`,
 * or the one already under way (a streamed turn's, started before its stream opens); the refusals are then
 * raised in the documented order: rate, unknown agent, poste, unknown session, allowance.
 */
export async function prepare(turn: PendingTurn, lookup: Promise<TurnLookup> = lookUp(turn)): Promise<Prepared> {
  const { ctx, input, opts, pick } = turn;
  const planned = pick && 'plan' in pick ? pick : undefined;
  const sessionId = input.sessionId;
  const found = await lookup;
  // A plain turn's admission also counts its rates and confirms a caller made from memory (`ratesWithAdmission`):
  // what it refuses before the allowance (401/403 key, 429, a changed key that starts the request again) comes
  // before every refusal below; only its 402s come after them.
  const first = admissionRefusal(found);
  if (first !== undefined) throw first;
  const { admission } = found;
  if (!found.reads.ok) throw found.reads.error;
  const reads = found.reads.value;
  const agents = pick?.agents ?? reads.agents;
  const agent = planned?.plan.agent ?? agents.find((a) => a.id === opts.agentId);
  if (!agent) throw agentNotFound(opts.agentId ?? '');
  if (isPoste(agent)) {
    // SPEC: a poste cannot be chatted with; the refusal is the generic 500 of a failed chat.
    ctx.log.warn({ agentId: agent.id }, 'chat refused: the agent is a poste');
    throw errors.internal(CHAT_FAILED);
  }
  if (sessionId !== undefined && !reads.sessionFound) throw sessionNotFound(sessionId);
  if (!admission.ok) throw admission.error;
  return {
    ...admission.value,
    agent,
    colleagues: agents.filter((a) => a.id !== agent.id),
    sessionId: sessionId ?? newId('ses'),
    existing: sessionId !== undefined,
    stored: reads.history,
    history: opts.conversation ?? historyOf(reads.history),
    memories: rankMemories(reads.memories, input.message),
    links: reads.links,
    toolLinks: reads.toolIds,
    blocks: renderContextBlocks(input.context),
  };
}

/** Passages of the agent's linked knowledge, reported in a `knowledge` event when there are any. */
export async function retrieval(s: TurnInputs & Prepared): Promise<Retrieved> {
  const { ctx, input, stages, agent } = s;
  if (!input.knowledge.enabled) return { passages: [] };
  const topK = topKFor(input.message, input.knowledge.topK);
  const passages = await stages.run('retrieval', () => retrievePassages(ctx, { agentId: agent.id, query: input.message, topK, links: s.links }));
  if (passages.length > 0) s.opts.sink?.({ type: 'knowledge', data: knowledgeUsedOf(passages) });
  return { passages };
}

/** Everything the model reads from the caller or the workspace is masked when it leaves the service. */
export function masking(s: TurnInputs & Prepared & Retrieved): Masked {
  const { input, masker } = s;
  return {
    message: masker.mask(input.message),
    maskedHistory: s.history.map((h) => ({ role: h.role, content: masker.mask(h.content) })),
    parts: {
      agent: s.agent,
      colleagues: s.colleagues,
      memories: s.memories.map((m) => ({ key: m.key, value: masker.mask(m.value) })),
      blocks: s.blocks.map((b) => ({ ...b, heading: masker.mask(b.heading), text: masker.mask(b.text) })),
      passages: s.passages.map((x) => ({ ...x, text: masker.mask(x.text) })),
      json: input.responseFormat?.type === 'json' ? { fields: input.responseFormat.fields, schema: input.responseFormat.schema } : undefined,
    },
    sampling: { temperature: input.options.temperature, maxTokens: input.options.maxTokens },
  };
}

/**
 * Colleagues named in the message are consulted before answering; a tool-capable model is also
 * offered `consult_colleague` (at most MAX_CONSULTATIONS consultations in the turn).
 */
export async function consultation(s: TurnInputs & Prepared & Masked): Promise<Consulted> {
  const { input, masker, model, agent, colleagues, sampling } = s;
  const consultations: Consultation[] = [];
  const consulted: Consulted['consulted'] = [];
  const canConsult = input.consult.enabled && consultable(colleagues).length > 0;
  const ask = async (colleague: AgentPersona, question: string, trigger: Consultation['trigger']) => {
    const started = performance.now();
    const answer = await askColleague(model, agent, colleague, masker.mask(question), sampling);
    consultations.push({
      agentId: colleague.id,
      agentName: colleague.name,
      question,
      answer: masker.restore(answer),
      trigger,
      durationMs: Math.round(performance.now() - started),
    });
    return answer;
  };
  const named = canConsult ? namedColleagues(colleagues, input.message) : [];
  if (named.length > 0) {
    await s.stages.run('consultation', async () => {
      for (const colleague of named) consulted.push({ name: colleague.name, answer: await ask(colleague, input.message, 'named') });
    });
  }
  const consultTool: ConsultHandler | undefined =
    canConsult && s.provider.supportsTools
      ? {
          def: consultToolDef(colleagues),
          ask: async (args) => {
            const { colleague, question } = (args ?? {}) as { colleague?: unknown; question?: unknown };
            if (typeof colleague !== 'string' || typeof question !== 'string' || !question.trim()) {
              return JSON.stringify({ error: 'colleague and question are required' });
            }
            if (consultations.length >= MAX_CONSULTATIONS) return JSON.stringify({ error: 'No more consultations in this turn' });
            const target = consultable(colleagues).find((c) => foldText(c.name) === foldText(colleague.trim()));
            if (!target) return JSON.stringify({ error: `Unknown colleague: ${colleague}` });
            return JSON.stringify({ colleague: target.name, answer: await ask(target, question, 'tool') });
          },
        }
      : undefined;
  return { consultations, consulted, consultTool };
}

/** The reasoning pass before the answer, unless turned off or the message is small talk. */
export async function reflection(s: TurnInputs & Prepared & Masked & Consulted): Promise<Reflected> {
  const { input, masker } = s;
  if (!input.options.reflection || isSmallTalk(input.message)) return {};
  const prompt = buildPrompt({ ...s.parts, json: undefined, consulted: s.consulted, history: s.maskedHistory, message: s.message });
  const masked = await s.stages.run('reflection', () => reflect(s.model, prompt, s.sampling));
  return { thoughts: { masked, text: masker.restore(masked) } };
}

/** The answer, with the workspace's tools (and `consult_colleague`) on a tool-capable model. */
export async function generation(s: TurnInputs & Prepared & Masked & Consulted & Reflected): Promise<Generated> {
  const { ctx, input, masker, model, agent } = s;
  const { json } = s.parts;
  const prompt = buildPrompt({
    ...s.parts,
    consulted: s.consulted,
    thoughts: s.thoughts?.masked,
    history: s.maskedHistory,
    message: s.message,
  });
  const gen = await s.stages.run('generation', async () => {
    const tools = offersTools(s) ? await ctx.app.tools.toolsFor(ctx, { agentId: agent.id, toolIds: input.tools.toolIds, linked: s.toolLinks }) : [];
    return generate({
      model,
      request: { messages: prompt.messages, material: prompt.material, json: json !== undefined, ...s.sampling },
      tools,
      consult: s.consultTool,
      masker,
      sink: s.opts.sink,
      signal: ctx.signal,
      log: ctx.log,
    });
  });
  const content = masker.restore(gen.result.content);
  const contentParsed = json ? parseObject(content) : undefined;
  return { generation: gen, content, ...(contentParsed ? { contentParsed } : {}) };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Facts of the requested categories, from the masked message, restored. */
export async function extraction(s: TurnInputs & Admitted & Masked): Promise<Extracted> {
  const request = s.input.extraction;
  if (!request) return {};
  const facts = await s.stages.run('extraction', () => extractFacts(s.model, s.message, request.categories));
  return { extracted: facts.map((f) => ({ category: f.category, value: s.masker.restore(f.value) })) };
}

/**
 * Metering (the whole turn, through the admission), the certificate and saving (the exchange and
 * memories, unless the caller keeps its own conversations), side by side. The save is one statement, and
 * carries the turn's ledger entry (`recordStatement`): one commit, not two waiting on each other's WAL
 * flush; a turn that keeps no conversation records through the workspace's ledger. The certificate's id is
 * chosen here, so the answer is stored with it while the certificate is appended to the chain, rather than
 * after (one round trip less at the end of a streamed turn).
 */
export async function settlement(s: TurnInputs & Prepared & Retrieved & Generated & Extracted): Promise<Settled> {
  const { ctx, input, opts, agent, model } = s;
  const persist = opts.conversation === undefined;
  const answeredBy = s.generation.result.model;
  const memoriesSaved = persist ? memoriesFromMessage(input.message) : [];
  const factMemories = persist && input.extraction?.persist && s.extracted ? memoriesFromFacts(s.extracted) : [];
  const stored = deriveMood(input.message, s.content, previousMood(s.stored, agent.id));
  const mood: Mood = { agentId: agent.id, name: agent.name, ...stored };
  const usage = model.usage;
  const proofId = certified(opts) ? newId('prf') : undefined;
  const workspaceId = ctx.caller.workspace.id;
  const proof =
    proofId === undefined
      ? undefined
      : pendingProof(ctx, {
          id: proofId,
          route: opts.route,
          modelAddress: `agent:${agent.id}`,
          model: answeredBy,
          request: s.raw ?? null,
          requestHash: s.requestHash,
          answer: s.content,
          usage,
        });
  const exchange = (): ExchangeWrite => ({
    workspaceId,
    userId: ctx.caller.user.id,
    sessionId: s.sessionId,
    existing: s.existing,
    title: sessionTitle(input.message),
    agent,
    model: answeredBy,
    userMessageId: newId('msg'),
    userMessage: input.message,
    answerId: newId('msg'),
    answer: s.content,
    usage,
    mood: stored,
    citations: knowledgeUsedOf(s.passages),
    stopped: false,
    proofId: proofId ?? null,
    stages: s.stages.soFar(),
    memories: [...memoriesSaved, ...factMemories].map((m) => ({ ...m, id: newId('mem') })),
    now: ctx.clock.now(),
  });
  const entry = model.run.entry(answeredBy);
  /** The certificate's append, once submitted (its failure is the turn's, awaited after the exchange's). */
  let proving: Promise<unknown> | undefined;
  const prove = (submitted: Promise<unknown>): void => {
    proving = submitted;
    submitted.catch(() => {});
  };
  const save = () =>
    s.stages.run('save', async () => {
      let saved: boolean | undefined;
      // The ledger entry goes in the exchange's statement (were that to fail, the turn's failure records it alone).
      // The write goes on the pool directly (a prepared statement) and the key's total is a plain read: the ORM's
      // EntityManager serves for their connection, the request's is not forked for them (issue 28). A certified
      // turn's exchange rides in its certificate's insert when the workspace's chain is idle: one statement and
      // one commit for the exchange, its ledger entry and its certificate, not two commits (issue 28, tenth pass).
      await s.admission.record(entry, async (pending) => {
        const record = recordStatement(ctx.app, workspaceId, [pending]);
        const statement = exchangeStatement(exchange(), committedOnly(ctx) ? withoutFlush(record) : record);
        const both = proof ? ctx.app.proofChain.submitWith(workspaceId, proof, statement) : undefined;
        if (both) prove(both.appended);
        saved = exchangeWritten(both?.carried ? await both.carried : await preparedSql(ctx.app.orm.em, statement.select, statement.params));
        const [recorded] = await record.outcomes(ctx.app.orm.em);
        return recorded!;
      });
      // Recorded before (the admission records once): the exchange alone, and the certificate beside it.
      if (proof && !proving) prove(ctx.app.proofChain.submit(workspaceId, proof));
      saved ??= await writeExchange(ctx.app.orm.em, exchange());
      if (!saved) throw sessionNotFound(s.sessionId);
      await proving;
    });
  if (persist) await save();
  else await s.admission.record(entry);
  return { memoriesSaved, mood, ...(proofId ? { proofId } : {}) };
}

/**
 * `SVC_ANSWER_COMMIT=committed` (docs/decisions.md, "When a gateway answer leaves"): the exchange and its ledger entry are
 * written with `synchronous_commit` off for their transaction only, as the gateway's answers are; the default
 * (`flushed`) waits for the WAL flush. Either way the answer leaves once the write has committed.
 */
const committedOnly = (ctx: ServiceContext): boolean => ctx.app.config.answerCommit === 'committed';

function withoutFlush(record: AlongsideStatement): AlongsideStatement {
  return { select: `${record.select} from (select set_config('synchronous_commit', 'off', true)) as async_commit`, params: record.params };
}

/** The result, as the `done` event carries it (after the `mood` event). */
export function result(s: TurnInputs & Prepared & Retrieved & Consulted & Reflected & Generated & Extracted & Settled): ChatTurnDone {
  const { agent } = s;
  const done: ChatTurnDone = {
    agentId: agent.id,
    agentName: agent.name,
    agentRole: agent.role,
    content: s.content,
    sessionId: s.sessionId,
    ...(s.contentParsed ? { contentParsed: s.contentParsed } : {}),
    ...(s.thoughts !== undefined ? { thoughts: s.thoughts.text } : {}),
    memoriesSaved: s.memoriesSaved,
    ...(s.extracted ? { extracted: s.extracted } : {}),
    tokenUsage: s.model.usage,
    knowledgeUsed: knowledgeUsedOf(s.passages),
    toolCalls: s.generation.toolCalls,
    ...(s.proofId ? { proofId: s.proofId } : {}),
    consultations: s.consultations,
    mood: s.mood,
    masked: s.masker.masked,
    contextUsed: {
      blocks: contextUsedBlocks(s.blocks),
      historyMessages: s.history.length,
      memoriesRecalled: s.memories.length,
      passages: s.passages.length,
    },
  };
  s.opts.sink?.({ type: 'mood', data: s.mood });
  s.opts.sink?.({ type: 'done', data: done });
  return done;
}
