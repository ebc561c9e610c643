/**
 * The chat turn: one pipeline behind the four REST routes, the `chat` mutation, the `chatStream`
 * subscription and the gateway's `agent:<slug>` models. The turn is the composition of its stages
 * (turn-stages.ts) over a typed state (turn-state.ts): planning (auto-pick only), prepare, retrieval,
 * consultation, reflection, generation, extraction, save (docs/chat.md).
 */
import type { ServiceContext } from '../../core/context.js';
import type { AgentPersona } from '../agents/index.js';
import type { ModelClass, TokenUsage } from '../models/index.js';
import { hashRequest } from '../proofs/index.js';
import { assertKeyBudget } from '../usage/index.js';
import { ChatRequestSchema, type ChatRequestInput, type ChatTurnDone } from './chat.schemas.js';
import { NoMasking, PiiMasker } from '../../lib/pii.js';
import { Stages } from './stages.js';
import { keepStoppedTurn } from './stopped-turn.js';
import { StreamedAnswer } from './streamed-answer.js';
import {
  admissionRefusal,
  autoPick,
  consultation,
  extraction,
  generation,
  lookUp,
  masking,
  meteredUntilDone,
  prepare,
  reflection,
  result,
  retrieval,
  settle,
  settlement,
} from './turn-stages.js';
import { certified, extend, type PendingTurn, type Prepared, type TurnInputs, type TurnOptions } from './turn-state.js';

export type { PendingTurn } from './turn-state.js';

export interface TurnOutcome {
  /** The complete result: what the `done` event carries. */
  result: ChatTurnDone;
  agent: AgentPersona;
  /** The model that answered, as reported by the provider, and its metering class. */
  model: string;
  modelClass: ModelClass;
  /** Whole-turn usage (equals `result.tokenUsage`). */
  usage: TokenUsage;
}

/**
 * Validates the input and, for auto-pick, lists the agents (404 when none), admits the turn (a
 * refusal is kept for `continueTurn`, so the stream reports it in-band) and plans the agent
 * (500 `Agent planning failed`). Everything thrown here precedes any stream. The caller was admitted
 * before, with the needs of the operation that opens the turn (chat's operations.ts, the gateway's, a
 * flow's agent step, a widget's chat).
 */
export async function startTurn(ctx: ServiceContext, raw: ChatRequestInput | unknown, opts: TurnOptions): Promise<PendingTurn> {
  const input = ChatRequestSchema.parse(raw ?? {});
  // A key check, like scopes: a spent key budget is refused before any stream opens.
  await assertKeyBudget(ctx);
  // A body JSON can carry but the certificate cannot hash (a number beyond the double range) is bad
  // input: refused now, not after the model answered.
  let requestHash: string | undefined;
  if (certified(opts)) {
    requestHash = hashRequest(raw ?? null);
  }
  const provider = opts.provider ?? ctx.app.models.default();
  // A certified turn streams into a session: what it shows is kept if the client stops it.
  const streamed = certified(opts) && opts.sink ? new StreamedAnswer() : undefined;
  const sink = streamed && opts.sink ? streamed.tap(opts.sink) : opts.sink;
  const stages = new Stages(sink);
  const turn: TurnInputs = {
    ctx,
    raw,
    input,
    opts: { ...opts, sink },
    provider,
    masker: provider.local ? new NoMasking() : new PiiMasker(),
    stages,
    requestHash,
    ...(streamed ? { streamed } : {}),
  };
  if (opts.agentId === undefined) return { ...turn, pick: await autoPick(turn) };
  if (!sink) return turn;
  // A streamed turn for a fixed agent is read and admitted before its stream opens, in one round trip that
  // counts its rates too (issue 28, fourth pass): what the admission refuses before the allowance (401/403,
  // 429, a changed key) precedes the stream; the read's refusals and the allowance's are reported in it.
  const lookup = lookUp(turn);
  const prepared = await settle(stages.run('prepare', () => prepare(turn, lookup)));
  if (!prepared.ok && prepared.error === admissionRefusal(await lookup)) throw prepared.error;
  return { ...turn, prepared };
}

/**
 * Runs the rest of the turn; errors thrown here are `error` events on a stream. A turn that ran a
 * model and then failed or was abandoned is still metered on what ran; one the client stopped after
 * prepare is kept in its session as far as it got (stopped-turn.ts).
 */
export async function continueTurn(p: PendingTurn): Promise<TurnOutcome> {
  if (p.pick && 'refusal' in p.pick) throw p.pick.refusal;
  const planned = p.pick?.admitted.model;
  const prepared = p.prepared
    ? { ...p, ...unwrap(p.prepared) }
    : await meteredUntilDone(planned, p.ctx.log, () => extend(p, (s) => s.stages.run('prepare', () => prepare(s))));
  try {
    return await meteredUntilDone(prepared.model, p.ctx.log, () => execute(prepared));
  } catch (err) {
    await keepStoppedTurn(prepared, err);
    throw err;
  }
}

function unwrap<T>(outcome: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** The whole turn in one call (plain routes, the mutation, the gateway). */
export async function runTurn(ctx: ServiceContext, input: ChatRequestInput | unknown, opts: TurnOptions): Promise<TurnOutcome> {
  return continueTurn(await startTurn(ctx, input, opts));
}

/** The stages after prepare, in order; each adds its part to the state. */
async function execute(prepared: TurnInputs & Prepared): Promise<TurnOutcome> {
  const retrieved = await extend(prepared, retrieval);
  const masked = await extend(retrieved, masking);
  const consulted = await extend(masked, consultation);
  const reflected = await extend(consulted, reflection);
  const generated = await extend(reflected, generation);
  const extracted = await extend(generated, extraction);
  const settled = await extend(extracted, settlement);
  const { agent, model, generation: gen } = settled;
  return { result: result(settled), agent, model: gen.result.model, modelClass: model.provider.modelClass, usage: model.usage };
}
