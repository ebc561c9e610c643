/**
 * The state of a chat turn, stage by stage. The inputs are fixed once the request is validated; each
 * stage is a function of the state so far that returns only what it adds, and the turn is the
 * composition of the stages (chat.service.ts), so each stage's type says what it reads and what it
 * produces.
 */
import type { ServiceContext } from '../../core/context.js';
import type { ModelProvider } from '../models/index.js';
import type { Admission } from '../usage/index.js';
import type { AgentPersona } from '../agents/index.js';
import type { Plan } from './auto-pick.js';
import type { EventSink } from './chat-events.js';
import type { ChatRequest, Consultation, ExtractedFact, MemorySaved, Mood } from './chat.schemas.js';
import type { HistoryRow } from './turn.repository.js';
import type { RenderedBlock } from './context-blocks.js';
import type { ConsultHandler, Generation } from './generation.js';
import type { RecalledMemory } from './memory.js';
import type { PiiMasker } from '../../lib/pii.js';
import type { HistoryMessage, PromptParts } from './prompt.js';
import type { Stages } from './stages.js';
import type { StreamedAnswer } from './streamed-answer.js';
import type { KnowledgeLinkRef, KnowledgeUsedItem } from './turn-extensions.js';
import type { TurnModel } from './turn-model.js';

export interface TurnOptions {
  /** The agent to answer; undefined: auto-pick plans one from the message. */
  agentId?: string;
  /** Metering and proof route label, e.g. `POST /v1/agents/:id/chat`. */
  route: string;
  /** Receives the stream events; given, the answer is streamed token by token. */
  sink?: EventSink;
  /** The model to run on; default the registry's default model. */
  provider?: ModelProvider;
  /**
   * The caller keeps the conversation (the gateway): these prior messages replace the session's
   * history, nothing is saved (neither the exchange nor memories), and no certificate is issued (the
   * caller certifies the answer itself). Absent, a streamed turn is certified (its id goes in `done`).
   */
  conversation?: HistoryMessage[];
  /**
   * Whether the turn recalls the agent's memories (default true). An anonymous visitor (a widget) must
   * not read what the workspace's people told the agent, shared memories included.
   */
  recall?: boolean;
}

/** The turn is certified: streamed, unless the caller keeps the conversation. */
export const certified = (opts: TurnOptions): boolean => opts.sink !== undefined && opts.conversation === undefined;

/** A validated turn: what every stage reads, never changed. */
export interface TurnInputs {
  readonly ctx: ServiceContext;
  /** The request body as received (the certificate quotes it). */
  readonly raw: unknown;
  readonly input: ChatRequest;
  readonly opts: Readonly<TurnOptions>;
  readonly provider: ModelProvider;
  readonly masker: PiiMasker;
  readonly stages: Stages;
  /** Hash of the request for the proof certificate, computed before any model runs. */
  readonly requestHash?: string;
  /** A streamed turn kept in a session: what it has shown so far, kept if the client stops it. */
  readonly streamed?: StreamedAnswer;
}

/** Admission: the turn's metering (check → record → release) and the model every call goes through. */
export interface Admitted {
  readonly admission: Admission;
  readonly model: TurnModel;
}

/**
 * Auto-pick, before any stream opens: the workspace's agents, then either the admission and the
 * planned agent, or the allowance refusal, which the turn reports when it continues (in-stream).
 */
export type AutoPick =
  | { readonly agents: AgentPersona[]; readonly refusal: unknown }
  | { readonly agents: AgentPersona[]; readonly admitted: Admitted; readonly plan: Plan };

/** A turn past validation (and, for auto-pick, past planning): what may still fail arrives in-stream. */
export interface PendingTurn extends TurnInputs {
  readonly pick?: AutoPick;
  /**
   * A streamed turn for a fixed agent is prepared before its stream opens (chat.service.ts, `startTurn`):
   * what prepare found, or the refusal the stream reports (unknown agent or session, a poste, the allowance).
   */
  readonly prepared?: { readonly ok: true; readonly value: Prepared } | { readonly ok: false; readonly error: unknown };
}

/** prepare: the answering agent, the session and what the prompt reads besides knowledge. */
export interface Prepared extends Admitted {
  readonly agent: AgentPersona;
  readonly colleagues: AgentPersona[];
  readonly sessionId: string;
  /** The session exists already (a new one is created when the exchange is saved). */
  readonly existing: boolean;
  readonly stored: HistoryRow[];
  readonly history: HistoryMessage[];
  readonly memories: RecalledMemory[];
  /** The agent's knowledge links, read with the rest (empty when knowledge is off). */
  readonly links: KnowledgeLinkRef[];
  /** The ids of the agent's linked tools, read with the rest (empty when no tool can be offered). */
  readonly toolLinks: string[];
  readonly blocks: RenderedBlock[];
}

/** retrieval: passages of the agent's linked knowledge (none when knowledge is off). */
export interface Retrieved {
  readonly passages: KnowledgeUsedItem[];
}

/** What the model reads from the caller and the workspace, masked when it leaves the service. */
export interface Masked {
  readonly message: string;
  readonly maskedHistory: HistoryMessage[];
  readonly parts: Omit<PromptParts, 'history' | 'message' | 'consulted' | 'thoughts'>;
  readonly sampling: { temperature: number; maxTokens: number };
}

/** consultation: colleagues' answers, the named ones before answering. */
export interface Consulted {
  /** Every consultation of the turn, in order; the `consult_colleague` tool adds to it while answering. */
  readonly consultations: Consultation[];
  /** The named colleagues' answers, as the prompt quotes them (masked). */
  readonly consulted: { name: string; answer: string }[];
  /** The `consult_colleague` tool, offered to a tool-capable model when colleagues can be consulted. */
  readonly consultTool?: ConsultHandler;
}

/** reflection: the reasoning pass, as the model wrote it (masked) and as the caller reads it. */
export interface Reflected {
  readonly thoughts?: { readonly masked: string; readonly text: string };
}

/** generation: the answer. */
export interface Generated {
  readonly generation: Generation;
  /** The answer with placeholders restored. */
  readonly content: string;
  /** The answer parsed, when JSON was requested and it is an object. */
  readonly contentParsed?: Record<string, unknown>;
}

/** extraction: the facts of the requested categories. */
export interface Extracted {
  readonly extracted?: ExtractedFact[];
}

/** save, metering and the certificate. */
export interface Settled {
  readonly memoriesSaved: MemorySaved[];
  readonly mood: Mood;
  readonly proofId?: string;
}

/** Runs one stage on the state and returns the state with what the stage added. */
export async function extend<S extends object, A extends object>(state: S, stage: (state: S) => Promise<A> | A): Promise<S & A> {
  return { ...state, ...(await stage(state)) };
}
