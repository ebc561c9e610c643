/**
 * The one model provider interface. Chat, gateway, debates and the planner talk to models only
 * through ModelProvider, so the OpenAI-compatible, Anthropic and built-in local models are
 * interchangeable and metered the same way.
 */

export type ModelClass = 'light' | 'standard' | 'advanced' | 'premium' | 'frontier';

/** Cheapest first; the index is the class rank. */
export const MODEL_CLASSES: readonly ModelClass[] = ['light', 'standard', 'advanced', 'premium', 'frontier'];

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it. */
  arguments: string;
}

export interface ToolDef {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** On assistant messages that asked for tools. */
  toolCalls?: ToolCall[];
  /** On tool messages: the call this message answers. */
  toolCallId?: string;
  name?: string;
}

export interface PersonaMaterial {
  name: string;
  role: string;
  personality: string;
  mission: string;
  decisionStyle: string;
  systemPrompt: string;
}

/**
 * A structured copy of what the prompt was built from. Remote models read the messages only;
 * the local model answers from this material instead of parsing its own prompt.
 */
export interface TurnMaterial {
  persona?: PersonaMaterial;
  contextBlocks?: { heading: string; text: string; high: boolean }[];
  memories?: { key: string; value: string }[];
  /** Retrieved passages; `ref` is the citation number `[n]`. */
  passages?: { ref: number; text: string; sourceName: string; section?: string; /** The head of the passage's document (light: its number, parties, period). */ document?: string }[];
  /** Requested JSON fields: name to description of its content. */
  jsonFields?: Record<string, string>;
  /** Free-form schema description of the requested JSON. */
  jsonSchema?: string;
  /**
   * Sentences already said in this conversation (a debate's earlier turns): the built-in model answers
   * with other sentences when it has any, so that speakers do not repeat one another.
   */
  alreadySaid?: string[];
}

/**
 * Whether the model must call a tool: `auto` (the default) lets it choose, `required` makes it call
 * one of `tools`, `{ name }` makes it call that one. Meaningless (and not sent) without tools; a
 * provider that takes no tools ignores it.
 */
export type ToolChoice = 'auto' | 'required' | { name: string };

/**
 * The caller's requested answer format (the gateway's `response_format` / `text.format` /
 * Anthropic `output_config.format`): one JSON object, or JSON valid against `schema`.
 */
export type ResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean; description?: string };

/**
 * Anthropic's `thinking` as the caller sent it: `enabled` with its budget, or any other type
 * (`disabled`, `adaptive`, `between_tools`...) forwarded as is. Providers that cannot think ignore it.
 */
export interface ThinkingOption {
  type: string;
  /** With `enabled` (required there, >= 1024). */
  budgetTokens?: number;
  display?: string;
}

/**
 * Generation settings a gateway caller may send beside the prompt. Each provider forwards what its
 * API takes and ignores the rest (docs/gateway.md, "Request fields").
 */
export interface GenerationOptions {
  responseFormat?: ResponseFormat;
  /** OpenAI `stop`, Anthropic `stop_sequences`. */
  stop?: string[];
  seed?: number;
  topP?: number;
  topK?: number;
  /** Only meaningful with tools. */
  parallelToolCalls?: boolean;
  /** End-user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  thinking?: ThinkingOption;
  /**
   * OpenAI `reasoning_effort` / Responses `reasoning.effort`, any value (`none` ... `xhigh`, `max`, or one
   * a newer client adds): an OpenAI-compatible model gets it as sent, an Anthropic model a thinking
   * setting (`thinkingForEffort`).
   */
  reasoningEffort?: string;
  /** Anthropic `output_config.effort`: to an Anthropic model as sent, to an OpenAI-compatible one as `reasoning_effort`. */
  outputEffort?: string;
  /** OpenAI `verbosity` / Responses `text.verbosity`. */
  verbosity?: string;
}

export interface CompletionRequest extends GenerationOptions {
  messages: ChatMessage[];
  tools?: ToolDef[];
  toolChoice?: ToolChoice;
  /** Force a single JSON object as the answer. */
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  material?: TurnMaterial;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface CompletionResult {
  content: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: 'stop' | 'length' | 'tool_calls';
  /** The model that answered, as reported by the provider. */
  model: string;
}

/** Text arrives as deltas; tool calls and usage only in the final result. */
export type StreamEvent = { type: 'delta'; text: string } | { type: 'done'; result: CompletionResult };

export interface ModelProvider {
  readonly name: string;
  readonly model: string;
  readonly modelClass: ModelClass;
  /** Runs in-process: no network, no data leaves the service. */
  readonly local: boolean;
  readonly supportsTools: boolean;
  complete(req: CompletionRequest): Promise<CompletionResult>;
  stream(req: CompletionRequest): AsyncIterable<StreamEvent>;
  /**
   * Optional: the same events as `stream`, in the same order, one array per read of the model's answer (what
   * one piece of the body brought). A consumer loops over a read's events without an asynchronous step per
   * event (issue 28: each step of an async generator is a few promises and iterator results, per delta).
   * `MeteredModel` uses it when present; every array holds at least one event.
   */
  streamBatches?(req: CompletionRequest): AsyncIterable<StreamEvent[]>;
  /** Estimate of the prompt tokens of these messages. */
  countTokens(messages: ChatMessage[]): Promise<number>;
  /**
   * The same model on a lighter path for calls that forward a request already validated (the gateway):
   * undici directly instead of the official SDK, where the provider has one. Same name, model and class.
   */
  readonly forwarding?: ModelProvider;
}

export interface ProviderErrorOptions {
  provider: string;
  cause?: unknown;
  /** HTTP status returned by the model server, when there was one. */
  status?: number;
  aborted?: boolean;
}

/** Any provider failure: HTTP error, unreadable response, timeout, or the caller's abort. */
export class ProviderError extends Error {
  readonly provider: string;
  readonly status: number | undefined;
  /** True when the caller's AbortSignal ended the call; not a model failure. */
  readonly aborted: boolean;

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.provider = options.provider;
    this.status = options.status;
    this.aborted = options.aborted ?? false;
  }
}

export function usageOf(promptTokens: number, completionTokens: number): TokenUsage {
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
