/**
 * The answering pass: one model call, or several when the model calls tools (bounded rounds).
 * Streams text deltas as `token` events with placeholders restored; reports tool calls as
 * `tool_call` / `tool_result` events and in `toolCalls`.
 */
import { errors } from '../../errors/index.js';
import type { Logger } from '../../lib/logger.js';
import type { ChatMessage, CompletionRequest, CompletionResult, ToolCall, ToolDef } from '../models/index.js';
import type { EventSink } from './chat-events.js';
import type { ToolCallReport } from './chat.schemas.js';
import type { PiiMasker } from '../../lib/pii.js';
import type { RunnableTool } from './turn-extensions.js';
import type { TurnModel } from './turn-model.js';

/** Rounds in which tools are offered; the round after the last one must answer in text. */
export const MAX_TOOL_ROUNDS = 4;

/** Handles `consult_colleague` calls; returns what the tool message tells the model. */
export interface ConsultHandler {
  def: ToolDef;
  ask(args: unknown): Promise<string>;
}

export interface GenerationInput {
  model: TurnModel;
  request: CompletionRequest;
  tools: RunnableTool[];
  consult?: ConsultHandler;
  masker: PiiMasker;
  /** Present: stream the answer and report events. */
  sink?: EventSink;
  signal?: AbortSignal;
  log: Logger;
}

export interface Generation {
  result: CompletionResult;
  toolCalls: ToolCallReport[];
}

export async function generate(input: GenerationInput): Promise<Generation> {
  const { model, tools, consult, masker, sink } = input;
  const defs: ToolDef[] = [...tools.map((t) => t.def), ...(consult ? [consult.def] : [])];
  const offer = model.provider.supportsTools && defs.length > 0;
  const messages: ChatMessage[] = [...input.request.messages];
  const reports: ToolCallReport[] = [];
  for (let round = 0; ; round++) {
    const withTools = offer && round < MAX_TOOL_ROUNDS;
    const request: CompletionRequest = { ...input.request, messages, ...(withTools ? { tools: defs } : {}) };
    const result = sink ? await streamRound(model, request, masker, sink) : await model.complete(request);
    if (!withTools || result.toolCalls.length === 0) return { result, toolCalls: reports };
    messages.push({ role: 'assistant', content: result.content, toolCalls: result.toolCalls });
    for (const call of result.toolCalls) {
      const content = call.name === consult?.def.name ? await consultCall(consult, call, masker) : await runTool(input, call, reports);
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
    }
  }
}

async function streamRound(model: TurnModel, request: CompletionRequest, masker: PiiMasker, sink: EventSink): Promise<CompletionResult> {
  const restorer = masker.streamRestorer();
  const emit = (text: string) => {
    if (text) sink({ type: 'token', data: { delta: text } });
  };
  const result = await model.stream(request, (delta) => emit(restorer.push(delta)));
  emit(restorer.flush());
  return result;
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

async function consultCall(consult: ConsultHandler, call: ToolCall, masker: PiiMasker): Promise<string> {
  const args = parseArguments(masker.restore(call.arguments));
  if (!args.ok) return JSON.stringify({ error: 'Arguments are not valid JSON' });
  return consult.ask(args.value);
}

/** Runs one workspace tool with the real (restored) arguments; the model reads a masked result. */
async function runTool(input: GenerationInput, call: ToolCall, reports: ToolCallReport[]): Promise<string> {
  const { masker, sink, signal, log } = input;
  const parsed = parseArguments(masker.restore(call.arguments));
  const args = parsed.ok ? parsed.value : masker.restore(call.arguments);
  sink?.({ type: 'tool_call', data: { toolName: call.name, arguments: args } });
  const tool = input.tools.find((t) => t.def.name === call.name);
  const started = performance.now();
  let outcome: { success: boolean; result: unknown };
  if (!parsed.ok) outcome = { success: false, result: { error: 'Arguments are not valid JSON' } };
  else if (!tool) outcome = { success: false, result: { error: `Unknown tool: ${call.name}` } };
  else {
    try {
      outcome = await tool.run(args, signal);
    } catch (err) {
      if (signal?.aborted) throw errors.turnAborted();
      log.warn({ err, tool: call.name }, 'tool failed');
      outcome = { success: false, result: { error: 'Tool failed' } };
    }
  }
  if (signal?.aborted) throw errors.turnAborted();
  const durationMs = Math.round(performance.now() - started);
  sink?.({ type: 'tool_result', data: { toolName: call.name, arguments: args, result: outcome.result, success: outcome.success, durationMs } });
  reports.push({ toolName: call.name, success: outcome.success, durationMs });
  return JSON.stringify(masker.maskValue(outcome.result ?? null));
}
