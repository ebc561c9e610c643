import type { ServiceContext } from '../../core/context.js';
import type { Admission } from '../usage/index.js';
import { MeteredModel, type ModelProvider } from '../models/index.js';
import type { GatewayAnswer, GatewayCall, StartedModelCall } from './gateway-call.js';

/*
 * A model call sent beside its admission (issue 28, docs/gateway.md "The model call beside its admission"): at one
 * connection a gateway call waited for the admission's round trip to PostgreSQL, then for the model; sent together,
 * the call waits for the longer of the two. Nothing reaches the client before the admission has succeeded: the text
 * the model streams meanwhile is kept here and handed to the route only when it runs the admitted call
 * (`runGatewayCall`), and an admission that refuses aborts the model request, so the client gets the refusal exactly
 * as before. What it costs: a refused call may have started an upstream request. So a key is sent early only while
 * its previous admission in this process, within `GRANTED_FOR_MS`, was granted; a key just refused, or not seen
 * lately, waits for its admission first, as every call did before.
 */

/** How long a granted admission lets the key's next calls go to the model beside their admission. */
export const GRANTED_FOR_MS = 60_000;

/** Keys remembered at most; past it the memory starts again empty (the next call of each key waits for its admission). */
const MAX_KEYS = 50_000;

/** Per process: the last time each meter's admission was granted; a refusal forgets the meter. */
export class AdmissionHistory {
  private readonly granted = new Map<string, number>();

  constructor(readonly enabled: boolean) {}

  /** Whether a call of `meter` at `now` may go to the model beside its admission. */
  mayOverlap(meter: string, now: number): boolean {
    if (!this.enabled) return false;
    const at = this.granted.get(meter);
    return at !== undefined && now - at < GRANTED_FOR_MS;
  }

  admitted(meter: string, now: number): void {
    if (!this.enabled) return;
    if (this.granted.size >= MAX_KEYS && !this.granted.has(meter)) this.granted.clear();
    this.granted.set(meter, now);
  }

  refused(meter: string): void {
    this.granted.delete(meter);
  }
}

declare module '../../core/deps.js' {
  interface Deps {
    /** Which keys' gateway calls go to the model beside their admission (SVC_ADMISSION_OVERLAP). */
    readonly admissionHistory: AdmissionHistory;
  }
}

type Answered = Omit<GatewayAnswer, 'proofId'>;

/**
 * A model call started before its admission was decided. The text streamed before the route takes the call
 * (`answer`) is kept and handed over first, in order; after that the deltas go straight through. `abort` stops the
 * upstream request (the admission refused, or the request failed before it ran).
 */
export class EarlyCall implements StartedModelCall {
  readonly run: MeteredModel;
  private readonly controller = new AbortController();
  private readonly settled: Promise<Answered>;
  private readonly kept: string[] = [];
  private sink?: (text: string) => void;
  private done = false;

  constructor(
    ctx: ServiceContext,
    provider: ModelProvider,
    call: GatewayCall,
    toolsForwarded: boolean,
    stream: boolean,
    admitting: Promise<Admission>,
    countPrompt: () => Promise<number>,
  ) {
    const { controller } = this;
    const own = ctx.signal;
    const leave = () => controller.abort(own?.reason);
    if (own?.aborted) leave();
    else own?.addEventListener('abort', leave, { once: true });
    // The request ended without running the call (a failure between its admission and its run): nothing is left upstream.
    ctx.scope.defer(() => {
      own?.removeEventListener('abort', leave);
      if (!this.done) controller.abort();
    });
    // Metered through the admission once it is decided: nothing records before it (runGatewayCall records after).
    const meter = { record: (entry: Parameters<Admission['record']>[0]) => admitting.then((a) => a.record(entry)) };
    this.run = new MeteredModel(provider, { meter, route: call.route, signal: controller.signal, countPrompt });
    const delta = stream
      ? (text: string) => {
          if (this.sink) this.sink(text);
          else this.kept.push(text);
        }
      : undefined;
    this.settled = answerWithModel(this.run, call, toolsForwarded, delta);
    // Awaited by `answer` once admitted; a refused call's failure (its abort) is nobody's to report.
    this.settled.then(
      () => (this.done = true),
      () => (this.done = true),
    );
  }

  /** The answer of the admitted call; `onDelta` receives the text kept so far at once, then each delta as it arrives. */
  answer(onDelta?: (text: string) => void): Promise<Answered> {
    if (onDelta) {
      this.sink = onDelta;
      for (const text of this.kept.splice(0)) onDelta(text);
    }
    return this.settled;
  }

  /** Stops the upstream request: its admission refused the call. */
  abort(): void {
    this.controller.abort();
  }
}

/** One model call of a gateway call: the request the provider is sent, and the answer as the dialects render it. */
export async function answerWithModel(
  run: MeteredModel,
  call: GatewayCall,
  toolsForwarded: boolean,
  onDelta?: (text: string) => void,
): Promise<Answered> {
  const result = await run.call(
    {
      messages: call.messages,
      tools: toolsForwarded ? call.tools : undefined,
      toolChoice: toolsForwarded ? call.toolChoice : undefined,
      temperature: call.temperature,
      maxTokens: call.maxTokens,
      ...call.generation,
    },
    onDelta,
  );
  return {
    content: result.content,
    toolCalls: result.toolCalls,
    usage: result.usage,
    finishReason: result.finishReason,
    model: result.model || run.provider.model,
    modelClass: run.provider.modelClass,
  };
}
