/**
 * The chat turn: one pipeline behind the four REST routes, the `chat` mutation, the `chatStream`
 * subscription and the gateway's `agent:<slug>` models. Stages, in order: planning (auto-pick only),
 * prepare, retrieval, consultation, reflection, generation, extraction, save (docs/chat.md).
 */
import type { ServiceContext } from '../../core/context.js';
import { errors, isDomainError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { isPoste, type Agent } from '../agents/agent.entity.js';
import { agentNotFound, loadWorkspaceAgents } from '../agents/agents.service.js';
import { authorize, type Access } from '../keys/access.js';
import type { ModelClass, ModelProvider, TokenUsage } from '../models/provider.js';
import { foldText } from '../models/text-match.js';
import { hashRequest, issueProof } from '../proofs/proofs.service.js';
import { assertCanConsume, assertKeyBudget, recordConsumption } from '../usage/metering.service.js';
import { planAgent, type Plan } from './auto-pick.js';
import type { EventSink } from './chat-events.js';
import {
  ChatRequestSchema,
  type ChatRequest,
  type ChatRequestInput,
  type ChatTurnDone,
  type Consultation,
  type ExtractedFact,
  type Mood,
} from './chat.schemas.js';
import { askColleague, consultable, consultToolDef, MAX_CONSULTATIONS, namedColleagues } from './consultation.js';
import { contextUsedBlocks, renderContextBlocks, type RenderedBlock } from './context-blocks.js';
import { extractFacts } from './extraction.js';
import { generate, type ConsultHandler } from './generation.js';
import { memoriesFromFacts, memoriesFromMessage, recallMemories, storeMemories, type RecalledMemory } from './memory.js';
import { deriveMood } from './mood.js';
import { NoMasking, PiiMasker } from './pii.js';
import { buildPrompt, type HistoryMessage, type PromptParts } from './prompt.js';
import { isSmallTalk, reflect } from './reflection.js';
import { knowledgeUsedOf, retrievePassages, topKFor } from './retrieval.js';
import type { SessionMessage } from './chat.entity.js';
import { appendExchange, findOwnSession, historyOf, loadHistory, previousMood } from './sessions.service.js';
import { Stages } from './stages.js';
import type { KnowledgeUsedItem } from './turn-extensions.js';
import { CHAT_FAILED, TurnModel } from './turn-model.js';

const WRITE = { scope: 'agents', write: true } as const;

export const NO_AGENTS = 'No agents available in this workspace';

export interface TurnOptions {
  /** The agent to answer; undefined: auto-pick plans one from the message. */
  agentId?: string;
  /** Metering and proof route label, e.g. `POST /v1/agents/:id/chat`. */
  route: string;
  /** Receives the stream events; given, the answer is streamed token by token. */
  sink?: EventSink;
  /** The model to run on; default the registry's default model. */
  provider?: ModelProvider;
  /** Dialect of the allowance refusal (see assertCanConsume); default native. */
  dialect?: 'native' | 'openai' | 'anthropic';
  /** Issue a proof certificate for the answer (its id goes in `done`); default: when streaming. */
  proof?: boolean;
  /** Prior messages given by the caller (gateway); replaces the session's history in the prompt. */
  history?: HistoryMessage[];
  /** False: save neither the exchange nor memories (the gateway keeps its own conversations). Default true. */
  persist?: boolean;
  /** The route family the caller came through; default the agents family (a write). */
  access?: Access;
}

export interface TurnOutcome {
  /** The complete result: what the `done` event carries. */
  result: ChatTurnDone;
  agent: Agent;
  /** The model that answered, as reported by the provider, and its metering class. */
  model: string;
  modelClass: ModelClass;
  /** Whole-turn usage (equals `result.tokenUsage`). */
  usage: TokenUsage;
}

/** A turn past validation (and, for auto-pick, past planning): what may still fail arrives in-stream. */
export interface PendingTurn {
  ctx: ServiceContext;
  raw: unknown;
  input: ChatRequest;
  opts: TurnOptions;
  model: TurnModel;
  masker: PiiMasker;
  stages: Stages;
  agents?: Agent[];
  plan?: Plan;
  /** An allowance refusal found before planning, thrown when the turn continues. */
  refusal?: unknown;
  /** The turn's usage has been recorded. */
  metered?: boolean;
  /** Hash of the request for the proof certificate, computed before any model runs. */
  requestHash?: string;
}

/**
 * Validates the input and, for auto-pick, lists the agents (404 when none), checks the allowance
 * (a refusal is kept for `continueTurn`, so the stream reports it in-band) and plans the agent
 * (500 `Agent planning failed`). Everything thrown here precedes any stream.
 */
export async function startTurn(ctx: ServiceContext, raw: ChatRequestInput | unknown, opts: TurnOptions): Promise<PendingTurn> {
  authorize(ctx, opts.access ?? WRITE);
  const input = ChatRequestSchema.parse(raw ?? {});
  // A key check, like scopes: a spent key budget is refused before any stream opens.
  await assertKeyBudget(ctx);
  // A body JSON can carry but the certificate cannot hash (a number beyond the double range) is bad
  // input: refused now, not after the model answered.
  let requestHash: string | undefined;
  if (opts.proof ?? opts.sink !== undefined) {
    try {
      requestHash = hashRequest(raw ?? null);
    } catch (err) {
      throw isDomainError(err) ? errors.badRequest(err.message) : err;
    }
  }
  const provider = opts.provider ?? ctx.app.models.default();
  const pending: PendingTurn = {
    ctx,
    raw,
    input,
    opts,
    model: new TurnModel(provider, ctx.signal, ctx.log),
    requestHash,
    masker: provider.local ? new NoMasking() : new PiiMasker(),
    stages: new Stages(opts.sink),
  };
  if (opts.agentId !== undefined) return pending;
  const agents = await loadWorkspaceAgents(ctx);
  if (agents.length === 0) throw errors.notFound(NO_AGENTS);
  pending.agents = agents;
  try {
    await assertCanConsume(ctx, { feature: 'chat', dialect: opts.dialect ?? 'native' });
  } catch (err) {
    if (!isDomainError(err)) throw err;
    pending.refusal = err;
    return pending;
  }
  try {
    pending.plan = await pending.stages.run('planning', () => planAgent(pending.model, agents, input.message, pending.masker));
  } catch (err) {
    await meterUnfinished(pending);
    throw err;
  }
  return pending;
}

/** Runs the rest of the turn; errors thrown here are `error` events on a stream. */
export async function continueTurn(p: PendingTurn): Promise<TurnOutcome> {
  if (p.refusal) throw p.refusal;
  try {
    return await execute(p);
  } catch (err) {
    await meterUnfinished(p);
    throw err;
  }
}

/** The whole turn in one call (plain routes, the mutation, the gateway). */
export async function runTurn(ctx: ServiceContext, input: ChatRequestInput | unknown, opts: TurnOptions): Promise<TurnOutcome> {
  return continueTurn(await startTurn(ctx, input, opts));
}

interface Prepared {
  agent: Agent;
  colleagues: Agent[];
  sessionId: string;
  existing: boolean;
  stored: SessionMessage[];
  history: HistoryMessage[];
  memories: RecalledMemory[];
  blocks: RenderedBlock[];
}

/**
 * Resolves the agent, the session and the allowance, and reads what the prompt needs. The reads run
 * concurrently (each on its own fork of the EntityManager); the refusals are then raised in the
 * documented order: unknown agent, poste, unknown session, allowance.
 */
async function prepare(p: PendingTurn): Promise<Prepared> {
  const { ctx, input, opts } = p;
  const read = (): ServiceContext => ({ ...ctx, em: ctx.em.fork() });
  const agentId = p.plan?.agent.id ?? opts.agentId ?? '';
  const [agents, session, allowance, stored, recalled] = await Promise.all([
    p.agents ?? loadWorkspaceAgents(read()),
    input.sessionId ? settle(findOwnSession(read(), input.sessionId)) : undefined,
    p.plan ? undefined : settle(assertCanConsume(read(), { feature: 'chat', dialect: opts.dialect ?? 'native' })),
    input.sessionId ? loadHistory(read(), input.sessionId) : [],
    recallMemories(read(), { id: agentId, isShared: false }, input.message),
  ]);
  const agent = p.plan?.agent ?? agents.find((a) => a.id === opts.agentId);
  if (!agent) throw agentNotFound(opts.agentId ?? '');
  if (isPoste(agent)) {
    // SPEC: a poste cannot be chatted with; the refusal is the generic 500 of a failed chat.
    ctx.log.warn({ agentId: agent.id }, 'chat refused: the agent is a poste');
    throw errors.internal(CHAT_FAILED);
  }
  if (session && !session.ok) throw session.error;
  if (allowance && !allowance.ok) throw allowance.error;
  return {
    agent,
    colleagues: agents.filter((a) => a.id !== agent.id),
    sessionId: session?.value.id ?? newId('ses'),
    existing: session !== undefined,
    stored,
    history: opts.history ?? historyOf(stored),
    // Shared memories (a console setting) are read across users: only then is a second read needed.
    memories: agent.isShared ? await recallMemories(ctx, agent, input.message) : recalled,
    blocks: renderContextBlocks(input.context),
  };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

async function execute(p: PendingTurn): Promise<TurnOutcome> {
  const { ctx, input, opts, model, masker, stages } = p;
  const sink = opts.sink;
  const persist = opts.persist ?? true;
  const provider = model.provider;
  const prep = await stages.run('prepare', () => prepare(p));
  const { agent, colleagues } = prep;

  let passages: KnowledgeUsedItem[] = [];
  if (input.knowledge.enabled) {
    const topK = topKFor(input.message, input.knowledge.topK);
    passages = await stages.run('retrieval', () => retrievePassages(ctx, { agentId: agent.id, query: input.message, topK }));
    if (passages.length > 0) sink?.({ type: 'knowledge', data: knowledgeUsedOf(passages) });
  }

  // Everything the model reads from the caller or the workspace is masked when it leaves the service.
  const message = masker.mask(input.message);
  const history = prep.history.map((h) => ({ role: h.role, content: masker.mask(h.content) }));
  const json = input.responseFormat?.type === 'json' ? { fields: input.responseFormat.fields, schema: input.responseFormat.schema } : undefined;
  const parts: Omit<PromptParts, 'history' | 'message'> = {
    agent,
    colleagues,
    memories: prep.memories.map((m) => ({ key: m.key, value: masker.mask(m.value) })),
    blocks: prep.blocks.map((b) => ({ ...b, heading: masker.mask(b.heading), text: masker.mask(b.text) })),
    passages: passages.map((x) => ({ ...x, text: masker.mask(x.text) })),
    consulted: [],
    json,
  };
  const sampling = { temperature: input.options.temperature, maxTokens: input.options.maxTokens };

  const consultations: Consultation[] = [];
  const canConsult = input.consult.enabled && consultable(colleagues).length > 0;
  const consultNow = async (colleague: Agent, question: string, trigger: Consultation['trigger']) => {
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
    await stages.run('consultation', async () => {
      for (const colleague of named) parts.consulted.push({ name: colleague.name, answer: await consultNow(colleague, input.message, 'named') });
    });
  }

  let thoughts: string | undefined;
  if (input.options.reflection && !isSmallTalk(input.message)) {
    const raw = await stages.run('reflection', () => reflect(model, buildPrompt({ ...parts, json: undefined, history, message }), sampling));
    thoughts = masker.restore(raw);
    parts.thoughts = raw;
  }

  const consult: ConsultHandler | undefined =
    canConsult && provider.supportsTools
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
            return JSON.stringify({ colleague: target.name, answer: await consultNow(target, question, 'tool') });
          },
        }
      : undefined;

  const prompt = buildPrompt({ ...parts, history, message });
  const gen = await stages.run('generation', async () => {
    const tools =
      input.tools.enabled && provider.supportsTools
        ? await ctx.app.tools.toolsFor(ctx, { agentId: agent.id, toolIds: input.tools.toolIds })
        : [];
    return generate({
      model,
      request: { messages: prompt.messages, material: prompt.material, json: json !== undefined, ...sampling },
      tools,
      consult,
      masker,
      sink,
      signal: ctx.signal,
      log: ctx.log,
    });
  });
  const content = masker.restore(gen.result.content);
  const contentParsed = json ? parseObject(content) : undefined;

  let extracted: ExtractedFact[] | undefined;
  const extraction = input.extraction;
  if (extraction) {
    const facts = await stages.run('extraction', () => extractFacts(model, message, extraction.categories));
    extracted = facts.map((f) => ({ category: f.category, value: masker.restore(f.value) }));
  }

  const memoriesSaved = persist ? memoriesFromMessage(input.message) : [];
  const factMemories = persist && extraction?.persist && extracted ? memoriesFromFacts(extracted) : [];
  const stored = deriveMood(input.message, content, previousMood(prep.stored, agent.id));
  const mood: Mood = { agentId: agent.id, name: agent.name, ...stored };
  const usage = model.usage;

  // Saving, metering and the proof touch different rows: they run side by side, each in its own transaction.
  const save = async () => {
    if (!persist) return;
    await stages.run('save', () =>
      ctx.em.transactional(async (em) => {
        await appendExchange(em, ctx, {
          sessionId: prep.sessionId,
          existing: prep.existing,
          agent,
          model: gen.result.model,
          userMessage: input.message,
          answer: content,
          usage,
          mood: stored,
        });
        await storeMemories(em, ctx, { agentId: agent.id, sessionId: prep.sessionId }, [...memoriesSaved, ...factMemories]);
      }),
    );
  };
  const meter = async () => {
    await recordConsumption(ctx, { route: opts.route, modelClass: provider.modelClass, usage, model: gen.result.model });
    p.metered = true;
  };
  const prove = async () =>
    (opts.proof ?? sink !== undefined)
      ? (
          await issueProof(ctx, {
            route: opts.route,
            modelAddress: `agent:${agent.id}`,
            model: gen.result.model,
            request: p.raw ?? null,
            requestHash: p.requestHash,
            answer: content,
            usage,
          })
        ).id
      : undefined;
  const [, , proofId] = await Promise.all([save(), meter(), prove()]);

  const result: ChatTurnDone = {
    agentId: agent.id,
    agentName: agent.name,
    agentRole: agent.role,
    content,
    sessionId: prep.sessionId,
    ...(contentParsed ? { contentParsed } : {}),
    ...(thoughts !== undefined ? { thoughts } : {}),
    memoriesSaved,
    ...(extracted ? { extracted } : {}),
    tokenUsage: usage,
    knowledgeUsed: knowledgeUsedOf(passages),
    toolCalls: gen.toolCalls,
    ...(proofId ? { proofId } : {}),
    consultations,
    mood,
    masked: masker.masked,
    contextUsed: {
      blocks: contextUsedBlocks(prep.blocks),
      historyMessages: prep.history.length,
      memoriesRecalled: prep.memories.length,
      passages: passages.length,
    },
  };
  sink?.({ type: 'mood', data: mood });
  sink?.({ type: 'done', data: result });
  return { result, agent, model: gen.result.model, modelClass: provider.modelClass, usage };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A turn that ran a model and then failed or was abandoned is still metered on what ran (an
 * interrupted call counts the prompt it sent and the text it had received). Nothing ran: nothing
 * is recorded, so refusals before the model consume nothing.
 */
async function meterUnfinished(p: PendingTurn): Promise<void> {
  const usage = p.model.usage;
  if (p.metered || usage.totalTokens === 0) return;
  try {
    await recordConsumption(p.ctx, { route: p.opts.route, modelClass: p.model.provider.modelClass, usage, model: p.model.provider.model });
  } catch (err) {
    p.ctx.log.error({ err }, 'could not meter an unfinished chat turn');
  }
}
