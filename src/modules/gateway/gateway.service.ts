import type { ServiceContext } from '../../core/context.js';
import { errors, toDomainError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import type { Agent } from '../agents/index.js';
import { loadWorkspaceAgents } from '../agents/index.js';
import { afterRequestRates, assertCanConsume, type Admission } from '../usage/index.js';
import { MeteredModel } from '../models/index.js';
import { usageOf, type ToolDef } from '../models/index.js';
import { countMessageTokensAsync, countTextTokensAsync } from '../models/index.js';
import { canonicalJson, issueProof, pendingProof } from '../proofs/index.js';
import type { CallOutcome } from '../proofs/index.js';
import { AUTO_ADDRESS, SENSITIVE_ADDRESS, chooseProvider, parseAddress, type Address } from './address.js';
import { agentTurnInput, answerAsAgent } from './agent-turn.js';
import { assertHonoured } from './capabilities.js';
import { Conversation } from '../conversations/index.js';
import type { GatewayAnswer, GatewayCall, PreparedCall, Target } from './gateway-call.js';
import { assignSlugs } from './slugs.js';
import { unnamed } from '../../lib/unnamed.js';
import { EarlyCall, answerWithModel } from './early-call.js';

/** The workspace's agent addresses: conversational agents with their unique slugs. */
export async function agentAddresses(ctx: ServiceContext): Promise<{ slug: string; agent: Agent }[]> {
  return assignSlugs(await loadWorkspaceAgents(ctx));
}

async function findConversation(ctx: ServiceContext, id: string | undefined): Promise<string | null> {
  if (id === undefined) return null;
  const found = await ctx.em.findOne(Conversation, { id, workspaceId: ctx.caller.workspace.id }, { fields: ['id'] });
  if (!found) throw errors.conversationNotFound(id);
  return found.id;
}

async function resolveTarget(ctx: ServiceContext, address: Address, hasTools: boolean): Promise<Target> {
  if (address.kind === 'agent') {
    const match = (await agentAddresses(ctx)).find((a) => a.slug === address.slug);
    if (!match) throw errors.modelNotFound(`agent:${address.slug}`);
    return { kind: 'agent', agent: match.agent, slug: match.slug, sensitive: address.sensitive };
  }
  return { kind: 'model', ...chooseProvider(ctx.app.models, address, hasTools) };
}

/**
 * Everything that can refuse a call before a model runs, in this order: scope and read-only (the
 * request pipeline, with the operation's needs: operations.ts), the body (`parse`, the dialect's reader:
 * 400), the model address (501 `debate:`, 404 unknown agent), the conversation header, then the
 * allowance. The body is read only once the key may answer, so a key without the scope, or a read-only
 * one, gets its 403 whatever it sent. Nothing is consumed by a refused call. The rates (the key's, the
 * route's ceiling) are counted with the admission, in one statement (`svc_rate_admit`); a refusal before
 * it counts them alone first, so a call past its rate gets its 429 whatever else is wrong with it.
 */
export async function prepareGatewayCall<P extends { call: GatewayCall; stream?: boolean }>(
  ctx: ServiceContext,
  parse: () => P,
): Promise<P & { prepared: PreparedCall }> {
  // The request's rates are counted by the admission's statement; a refusal before it counts them first (429 first).
  const { parsed, call, target, agentInput, conversationId } = await afterRequestRates(ctx, async () => {
    const parsed = parse();
    const { call } = parsed;
    const address = parseAddress(call.address);
    const target = await resolveTarget(ctx, address, call.tools.length > 0);
    assertHonoured(call, target);
    const agentInput = target.kind === 'agent' ? agentTurnInput(call) : undefined;
    return { parsed, call, target, agentInput, conversationId: await findConversation(ctx, call.conversationId) };
  });
  // An agent answer is a chat turn: it needs the plan's chat feature, like the native chat routes.
  const admitting = assertCanConsume(ctx, { feature: target.kind === 'agent' ? 'chat' : 'gateway' });
  // A key whose last admission here was granted sends its model call beside the admission (early-call.ts): nothing
  // reaches the client before the admission succeeds, and a refusal aborts the model request.
  const history = ctx.app.admissionHistory;
  const meter = ctx.caller.limits.meter;
  const early =
    target.kind === 'model' && history.mayOverlap(meter, ctx.clock.now().getTime())
      ? new EarlyCall(ctx, target.provider.forwarding ?? target.provider, call, target.toolsForwarded, parsed.stream === true, admitting, unnamed(() => countPromptTokens(call)))
      : undefined;
  let admission: Admission;
  try {
    admission = await admitting;
  } catch (err) {
    early?.abort();
    history.refused(meter);
    throw err;
  }
  history.admitted(meter, ctx.clock.now().getTime());
  const model = target.kind === 'model' ? target.provider.model : `agent:${target.slug}`;
  return { ...parsed, prepared: { call, target, conversationId, proofId: newId('prf'), model, agentInput, admission, early } };
}

/**
 * Runs a prepared call: the model (or the agent's turn) answers, text pieces go to `onDelta` as they
 * arrive, then the certificate is appended to the chain and the answer metered through the call's
 * admission with the class of the model that answered. A call the client abandoned is metered on
 * what ran, like an interrupted chat turn (no certificate unless a stream already named one).
 */
export async function runGatewayCall(
  ctx: ServiceContext,
  prepared: PreparedCall,
  onDelta?: (text: string) => void,
): Promise<GatewayAnswer> {
  const { call, target } = prepared;
  // A model call is metered here; an agent turn meters itself (whole turn, on this route, through the same admission).
  let run: MeteredModel | undefined;
  let answer: Omit<GatewayAnswer, 'proofId'>;
  let streamed = '';
  const delta =
    onDelta &&
    ((text: string) => {
      streamed += text;
      onDelta(text);
    });
  try {
    if (target.kind === 'agent') answer = await answerAsAgent(ctx, prepared, target, delta);
    else if (prepared.early) {
      // Sent beside the admission: the text it streamed meanwhile comes first.
      run = prepared.early.run;
      answer = await prepared.early.answer(delta);
    } else {
      // The forwarding path of the provider (undici, a keep-alive pool) where it has one: the SDKs stay for agents.
      run = new MeteredModel(target.provider.forwarding ?? target.provider, { meter: prepared.admission, route: call.route, signal: ctx.signal, countPrompt: unnamed(() => countPromptTokens(call)) });
      answer = await answerWithModel(run, call, target.toolsForwarded, delta);
    }
  } catch (err) {
    await run?.recordUnfinished(ctx.log);
    const failure = providerFailure(ctx, err);
    // A stream named its certificate in its headers before the answer existed: it is issued anyway.
    if (onDelta) await certifyUnfinished(ctx, prepared, ctx.signal?.aborted ? 'abandoned' : 'failed', streamed);
    throw failure;
  }
  const proof = {
    id: prepared.proofId,
    route: call.route,
    modelAddress: call.address,
    model: answer.model,
    requestHash: call.requestHash,
    answer: answerText(answer),
    usage: answer.usage,
    conversationId: prepared.conversationId,
  };
  if (!run) await issueProof(ctx, proof); // an agent turn recorded its own consumption
  else {
    // The ledger entry and the certificate in one statement per workspace batch (answer-writes.ts).
    let certified = false;
    const workspaceId = ctx.caller.workspace.id;
    await prepared.admission.record(run.entry(answer.model), (consumption) => {
      certified = true;
      return ctx.app.answerWrites.submit(workspaceId, { proof: pendingProof(ctx, proof), consumption });
    });
    // Recorded before (never for a model call today): the certificate goes alone.
    if (!certified) await issueProof(ctx, proof);
  }
  return { ...answer, proofId: prepared.proofId };
}

/** The certified answer: the text, or with tool calls the canonical JSON of both. */
export function answerText(a: Pick<GatewayAnswer, 'content' | 'toolCalls'>): string {
  if (a.toolCalls.length === 0) return a.content;
  return canonicalJson({ content: a.content, toolCalls: a.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) });
}

/** What a call that ended without an answer consumed, by our count: the prompt sent and the text received. */
async function unfinishedUsage(call: GatewayCall, received: string) {
  return usageOf(await countPromptTokens(call), await countTextTokensAsync(received));
}

/**
 * The certificate of a streamed call that failed or was abandoned, so that the id its `x-svc-proof`
 * header named exists and verifies: it records the outcome, the text streamed before the end (hashed
 * as the answer) and what was consumed. Never throws: the caller is already ending with an error.
 */
async function certifyUnfinished(ctx: ServiceContext, prepared: PreparedCall, outcome: CallOutcome, streamed: string): Promise<void> {
  const { call } = prepared;
  try {
    await issueProof(ctx, {
      id: prepared.proofId,
      route: call.route,
      modelAddress: call.address,
      model: prepared.model,
      requestHash: call.requestHash,
      answer: streamed,
      usage: await unfinishedUsage(call, streamed),
      conversationId: prepared.conversationId,
      outcome,
    });
  } catch (err) {
    ctx.log.error({ err, proofId: prepared.proofId, outcome }, 'could not certify an unfinished gateway call');
  }
}

/** Known errors become their catalogue error (an aborted call, `turn_aborted`); any other failure a 500 without its internals. */
function providerFailure(ctx: ServiceContext, err: unknown): unknown {
  if (ctx.signal?.aborted) return err;
  const { error, unexpected } = toDomainError(err);
  if (!unexpected) return error;
  ctx.log.warn({ err }, 'gateway model call failed');
  return errors.internal('The model failed to answer');
}

const toolTokens = (tools: ToolDef[]): Promise<number> => (tools.length ? countTextTokensAsync(JSON.stringify(tools)) : Promise.resolve(0));

/** The prompt tokens of a call as this gateway counts them (o200k over system, messages and tool definitions). */
export const countPromptTokens = async (call: Pick<GatewayCall, 'messages' | 'tools'>): Promise<number> =>
  (await countMessageTokensAsync(call.messages)) + (await toolTokens(call.tools));

/**
 * `POST /v1/messages/count_tokens`: the prompt tokens of the request as this gateway counts them
 * (o200k tokenizer over system, messages and tool definitions). The address is checked as for a call
 * (404 unknown agent, 501 `debate:`); no model runs and nothing is metered, but the count is certified.
 */
export async function countGatewayTokens(ctx: ServiceContext, parse: () => GatewayCall): Promise<{ inputTokens: number; proofId: string }> {
  const call = parse();
  const address = parseAddress(call.address);
  const target = await resolveTarget(ctx, address, call.tools.length > 0);
  const conversationId = await findConversation(ctx, call.conversationId);
  const inputTokens = await countPromptTokens(call);
  const model = target.kind === 'model' ? target.provider.model : `agent:${target.slug}`;
  const { id } = await issueProof(ctx, {
    route: call.route,
    modelAddress: call.address,
    model,
    requestHash: call.requestHash,
    answer: canonicalJson({ input_tokens: inputTokens }),
    usage: usageOf(0, 0),
    conversationId,
  });
  return { inputTokens, proofId: id };
}

export interface ModelListEntry {
  id: string;
  createdAt: Date;
  displayName: string;
}

/** `GET /v1/models`: `agent:<slug>` of each conversational agent (oldest first), then `svc-auto` and `svc-sensitive`. */
export async function listGatewayModels(ctx: ServiceContext): Promise<ModelListEntry[]> {
  const agents = await agentAddresses(ctx);
  const since = ctx.caller.workspace.createdAt;
  return [
    ...agents.map(({ slug, agent }) => ({ id: `agent:${slug}`, createdAt: agent.createdAt, displayName: agent.name })),
    { id: AUTO_ADDRESS, createdAt: since, displayName: 'Automatic: cheapest adequate model' },
    { id: SENSITIVE_ADDRESS, createdAt: since, displayName: 'Sensitive: local model, nothing leaves the machine' },
  ];
}

/**
 * `GET /v1/models/:id` (the clients' `models.retrieve`): the entry of the list with that id; anything the
 * list does not hold is 404 `model_not_found`, whether or not a call could name it (docs/gateway.md).
 */
export async function getGatewayModel(ctx: ServiceContext, id: string): Promise<ModelListEntry> {
  const entry = (await listGatewayModels(ctx)).find((e) => e.id === id);
  if (!entry) throw errors.modelNotFound(id);
  return entry;
}
