import type { Agent } from '../agents/index.js';
import type { ChatRequestInput } from '../chat/index.js';
import type { HistoryMessage } from '../chat/index.js';
import type { Admission } from '../usage/index.js';
import type { ChatMessage, GenerationOptions, MeteredModel, ModelClass, ModelProvider, TokenUsage, ToolCall, ToolChoice, ToolDef } from '../models/index.js';

/*
 * What a gateway call is, shared by the dialects, the service and the agent turn (kept apart from
 * gateway.service.ts so that agent-turn.ts, which the service calls, does not import it back).
 */

export type GatewayDialect = 'openai' | 'anthropic' | 'responses';

/** A gateway call in neither dialect: what both translate their request into. */
export interface GatewayCall {
  dialect: GatewayDialect;
  /** e.g. `POST /v1/chat/completions`: recorded in the certificate and the ledger. */
  route: string;
  /** The `model` field as sent. */
  address: string;
  /** System messages first, then the conversation in order. */
  messages: ChatMessage[];
  tools: ToolDef[];
  /** `required` or a named tool (one of `tools`); absent is `auto`. Forwarded with the tools only. */
  toolChoice?: Exclude<ToolChoice, 'auto'>;
  temperature?: number;
  maxTokens?: number;
  /** The other generation settings (structured output, stop, seed...): each provider forwards what it takes. */
  generation?: GenerationOptions;
  /** The wire name of the structured-output field, for refusals: `response_format`, `text.format`, `output_config.format`. */
  formatField?: string;
  /** `hashRequest` of the body as received, for the certificate; computed while parsing, so an unhashable body is a 400. */
  requestHash: string;
  /** `x-svc-conversation`, when sent. */
  conversationId?: string;
}

export type Target =
  | { kind: 'model'; provider: ModelProvider; toolsForwarded: boolean }
  | { kind: 'agent'; agent: Agent; slug: string; sensitive: boolean };

/** A call that passed every check that can refuse it (4xx): only the model run is left. */
export interface PreparedCall {
  call: GatewayCall;
  target: Target;
  conversationId: string | null;
  /** Reserved before the answer so that a stream can name it in its headers. */
  proofId: string;
  /** Best knowledge of the answering model before it runs. */
  model: string;
  /** For an agent address: the turn, validated before any stream opens. */
  agentInput?: AgentTurnInput;
  /** The call's metering: its questions are held until the answer is recorded or the request ends. */
  admission: Admission;
  /** The model call, when it was sent beside the admission (early-call.ts): `runGatewayCall` takes its answer. */
  early?: StartedModelCall;
}

/**
 * A model call started before its admission was decided (early-call.ts's `EarlyCall`; described here so that this
 * file, which early-call.ts imports, does not import it back).
 */
export interface StartedModelCall {
  readonly run: MeteredModel;
  /** The answer of the admitted call; `onDelta` receives the text kept so far at once, then each delta. */
  answer(onDelta?: (text: string) => void): Promise<Omit<GatewayAnswer, 'proofId'>>;
  /** Stops the upstream request: its admission refused the call. */
  abort(): void;
}

export interface GatewayAnswer {
  content: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: 'stop' | 'length' | 'tool_calls';
  model: string;
  modelClass: ModelClass;
  proofId: string;
}

/** An agent address's turn, validated before any stream opens (agent-turn.ts). */
export interface AgentTurnInput {
  /** The chat request body the turn runs on. */
  chat: ChatRequestInput;
  /** The caller's earlier messages, for this call only. */
  history: HistoryMessage[];
}
