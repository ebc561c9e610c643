import type { ServiceContext } from '../../core/context.js';
import type { Deps } from '../../core/deps.js';
import { ErrorCode, FlowFailureCode, toDomainError, type FlowStepCode } from '../../errors/index.js';
import { OutboundRequestError, safeFetch } from '../../net/index.js';
import { runTurn } from '../chat/index.js';
import { queryKnowledge } from '../knowledge/index.js';
import { verifyText } from '../verify/index.js';
import { User, Workspace } from '../workspaces/index.js';
import type { FlowRun } from './flow.entity.js';
import { flowCaller, type StepOperation } from './flow-caller.js';
import { NODE_CONFIGS, type FlowNode } from './flows.schemas.js';
import { evaluate, render, type ConditionOp, type TemplateContext } from './templates.js';

/** What executing one node gave. */
export type StepResult =
  | { kind: 'done'; output: unknown; summary: string }
  | { kind: 'failed'; error: string; code: FlowStepCode }
  | { kind: 'wait'; until: Date; summary: string }
  | { kind: 'approval'; question: string; data: string | null; expiresAt: Date };

const HTTP_TIMEOUT_MS = 10_000;
const HTTP_MAX_RESPONSE = 64 * 1024;
const OUTPUT_TEXT_MAX = 4_000;
const SUMMARY_MAX = 200;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The idempotency key of an outbound step, recorded before the request leaves and sent with it. */
export const idempotencyKeyOf = (runId: string, nodeKey: string) => `${runId}:${nodeKey}`;

/**
 * A service call of a step: its request is opened through the request pipeline (`app.flows.admitStep`)
 * as the flow (`flowCaller`: the creator in the run's workspace, metered under `flow:<flowId>`, with the
 * flow's own rate and, for `op`'s ceiling, its own count), so agent steps are metered in questions and
 * verify steps in controls, and a spent allowance or a reached limit refuses the step (402, 429) as it
 * would refuse the creator. Its catalogue error fails the step with its code.
 */
async function asFlow(app: Deps, run: FlowRun, signal: AbortSignal, op: StepOperation, work: (ctx: ServiceContext) => Promise<StepResult>): Promise<StepResult> {
  const em = app.orm.em.fork();
  const [workspace, user] = await Promise.all([em.findOne(Workspace, { id: run.workspaceId }), em.findOne(User, { id: run.userId })]);
  if (!workspace || !user) return { kind: 'failed', error: "The flow's creator no longer exists", code: FlowFailureCode.creatorMissing };
  const caller = flowCaller(app, workspace, user, { flowId: run.flowId, runId: run.id });
  let ctx: ServiceContext | undefined;
  try {
    ctx = await app.flows.admitStep(app, caller, op, {
      signal,
      log: app.log.child(run.requestId ? { runId: run.id, requestId: run.requestId } : { runId: run.id }),
      requestId: run.requestId ?? null,
    });
    return await work(ctx);
  } catch (err) {
    if (signal.aborted) throw err;
    const { error, unexpected } = toDomainError(err);
    if (unexpected) app.log.error({ err, runId: run.id }, 'flow step failed unexpectedly');
    return { kind: 'failed', error: error.message, code: error.code };
  } finally {
    await ctx?.scope.dispose();
  }
}

/** The operations of the steps that call a service; an agent step counts against the agent-chat ceiling, per flow. */
const STEP_OPS = {
  'agent.ask': { name: 'flow agent.ask', needs: { scope: 'engine', write: true, rateLimit: 'agentChat' } },
  'knowledge.query': { name: 'flow knowledge.query', needs: { scope: 'engine' } },
  'verify.text': { name: 'flow verify.text', needs: { scope: 'engine', write: true } },
} as const satisfies Record<string, StepOperation>;

export async function executeNode(app: Deps, run: FlowRun, node: FlowNode, context: TemplateContext, signal: AbortSignal): Promise<StepResult> {
  const now = app.clock.now();
  switch (node.type) {
    case 'trigger.manual':
    case 'trigger.schedule':
    case 'trigger.webhook':
    case 'trigger.event':
      return { kind: 'done', output: run.input, summary: `${run.trigger} trigger` };
    case 'agent.ask': {
      const c = NODE_CONFIGS['agent.ask'].parse(node.config ?? {});
      return asFlow(app, run, signal, STEP_OPS['agent.ask'], async (ctx) => {
        const turn = await runTurn(ctx, { message: render(c.prompt, context) }, {
          agentId: c.agentId,
          route: STEP_OPS['agent.ask'].name,
        });
        const answer = turn.result.content;
        return { kind: 'done', output: { answer, agentId: turn.agent.id, agentName: turn.agent.name }, summary: clip(answer, SUMMARY_MAX) };
      });
    }
    case 'knowledge.query': {
      const c = NODE_CONFIGS['knowledge.query'].parse(node.config ?? {});
      return asFlow(app, run, signal, STEP_OPS['knowledge.query'], async (ctx) => {
        const items = await queryKnowledge(ctx, { query: render(c.query, context), collectionIds: c.collectionIds, topK: c.topK });
        const results = items.map((i) => ({ sourceName: i.sourceName, section: i.section, passage: i.chunkPreview, similarity: i.similarity }));
        return { kind: 'done', output: { results }, summary: `${results.length} passage${results.length === 1 ? '' : 's'} found` };
      });
    }
    case 'verify.text': {
      const c = NODE_CONFIGS['verify.text'].parse(node.config ?? {});
      return asFlow(app, run, signal, STEP_OPS['verify.text'], async (ctx) => {
        const text = render(c.text, context);
        const report = await verifyText(ctx, c.passages ? { text, passages: c.passages } : { text, collectionIds: c.collectionIds });
        const { counts } = report;
        return {
          kind: 'done',
          output: { reportId: report.id, counts },
          summary: `${counts.supported} supported, ${counts.contradicted} contradicted, ${counts.unverifiable} unverifiable`,
        };
      });
    }
    case 'condition': {
      const c = NODE_CONFIGS.condition.parse(node.config ?? {});
      const result = evaluate(render(c.left, context), c.op as ConditionOp, render(c.right ?? '', context));
      return { kind: 'done', output: { result }, summary: String(result) };
    }
    case 'transform': {
      const c = NODE_CONFIGS.transform.parse(node.config ?? {});
      const text = render(c.template, context);
      return { kind: 'done', output: { text }, summary: clip(text, SUMMARY_MAX) };
    }
    case 'wait': {
      const c = NODE_CONFIGS.wait.parse(node.config ?? {});
      return { kind: 'wait', until: new Date(now.getTime() + c.seconds * 1000), summary: `waits ${c.seconds} s` };
    }
    case 'approval': {
      const c = NODE_CONFIGS.approval.parse(node.config ?? {});
      const timeoutMs = c.timeoutSeconds !== undefined ? c.timeoutSeconds * 1000 : app.config.flows.approvalTimeoutMs;
      return {
        kind: 'approval',
        question: render(c.question, context),
        data: c.data === undefined ? null : render(c.data, context),
        expiresAt: new Date(now.getTime() + timeoutMs),
      };
    }
    case 'http.request':
      return httpRequest(app, run, node, context, signal);
    case 'mail.send': {
      const c = NODE_CONFIGS['mail.send'].parse(node.config ?? {});
      const to = render(c.to, context);
      try {
        await app.mailer.send({ to, subject: render(c.subject, context), text: render(c.body, context) });
      } catch (err) {
        if (signal.aborted) throw err;
        app.log.warn({ err, runId: run.id }, 'flow mail could not be sent');
        return { kind: 'failed', error: 'The mail could not be sent', code: FlowFailureCode.mailFailed };
      }
      return { kind: 'done', output: { to }, summary: `mail sent to ${to}` };
    }
    default:
      return { kind: 'failed', error: `Unknown node type ${node.type}`, code: FlowFailureCode.unknownNodeType };
  }
}

/** Through the SSRF guard (`safeFetch`: the address is checked at the call), with the step's idempotency key. */
async function httpRequest(app: Deps, run: FlowRun, node: FlowNode, context: TemplateContext, signal: AbortSignal): Promise<StepResult> {
  const c = NODE_CONFIGS['http.request'].parse(node.config ?? {});
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.headers ?? {})) headers[name.toLowerCase()] = render(value, context);
  const body = c.body === undefined ? undefined : render(c.body, context);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  headers['idempotency-key'] = idempotencyKeyOf(run.id, node.key);
  headers['user-agent'] ??= 'Svc-Flows/1.0';
  const url = render(c.url, context);
  try {
    const res = await safeFetch(url, {
      method: c.method,
      headers,
      body,
      timeoutMs: HTTP_TIMEOUT_MS,
      maxResponseBytes: HTTP_MAX_RESPONSE,
      deployment: app.config.deployment,
      resolve: app.resolve,
      signal,
    });
    const output = { status: res.status, body: clip(res.body, OUTPUT_TEXT_MAX) };
    if (res.status < 200 || res.status > 299) {
      return { kind: 'failed', error: `${c.method} ${URL.parse(url)?.host ?? url} answered ${res.status}`, code: FlowFailureCode.httpStatus };
    }
    return { kind: 'done', output, summary: `${c.method} ${URL.parse(url)?.host ?? url}: ${res.status}` };
  } catch (err) {
    if (signal.aborted) throw err;
    if (err instanceof OutboundRequestError) {
      return { kind: 'failed', error: err.message, code: err.kind === 'refused' ? ErrorCode.urlRefused : FlowFailureCode.httpFailed };
    }
    const { error } = toDomainError(err);
    return { kind: 'failed', error: error.code === ErrorCode.internal ? 'The HTTP request could not be made' : error.message, code: FlowFailureCode.httpFailed };
  }
}
