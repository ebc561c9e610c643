/**
 * What a visitor does through an embedded widget: read its configuration and ask a question whose answer
 * streams into the panel. The caller is the widget acting for its workspace (widget-caller.ts): the
 * answer is admitted, metered and recorded like any chat turn, metered under the widget (`widget:<id>`).
 * docs/widgets.md.
 */
import type { ServiceContext } from '../../core/context.js';
import { chatStreamError, errors, isDomainError, ErrorCode } from '../../errors/index.js';
import { Agent } from '../agents/index.js';
import type { ChatStreamEvent } from '../chat/index.js';
import { finishStreamedTurn } from '../chat/index.js';
import { startTurn } from '../chat/index.js';
import { findDossier } from '../knowledge/index.js';
import { ask } from '../light/index.js';
import { assertKeyBudget } from '../usage/index.js';
import type { Widget } from './widget.entity.js';
import type { WidgetVisitor } from './widget-caller.js';
import { WidgetChatSchema, type WidgetConfig } from './widgets.schemas.js';

/** The route a widget's answers are metered under (the ledger's `route`). */
export const WIDGET_CHAT_ROUTE = 'POST /widget/:publicId/chat';

/** A citation as the panel shows it: where the passage comes from, never ids or the workspace's internals. */
export interface WidgetCitation {
  ref: number;
  sourceName: string;
  section: string;
  page: number;
}

/**
 * The events of a widget's chat stream (`data: {"type","data"}`): the answer's tokens as they come, then
 * `done` with the whole answer and its citations, or one `error` (`status`, `error`, `code`).
 */
export type WidgetStreamEvent =
  | { type: 'token'; data: { delta: string } }
  | { type: 'done'; data: { content: string; citations: WidgetCitation[] } }
  | Extract<ChatStreamEvent, { type: 'error' }>;

/** Only a widget acts through its public endpoints; a key or a person never reaches them. */
function visitorOf(ctx: ServiceContext): WidgetVisitor {
  if (ctx.caller.kind !== 'widget') throw errors.scopeDenied(null);
  return ctx.caller.widget;
}

/** `GET /widget/:publicId/config`: what the panel shows before the first question. */
export function widgetConfig(ctx: ServiceContext): WidgetConfig {
  const { widget } = visitorOf(ctx);
  return { publicId: widget.publicId, name: widget.name, greeting: widget.greeting ?? null, family: widget.family };
}

/**
 * What of a chat turn's events reaches a visitor's panel (tokens, the answer, an error); the rest stays
 * in. The widget's monthly budget (its caller's `limits.monthlyQuestions`) is worded as the widget's ceiling.
 */
export function toWidgetEvent(widget: Widget, event: ChatStreamEvent): WidgetStreamEvent | undefined {
  switch (event.type) {
    case 'token':
      return { type: 'token', data: { delta: event.data.delta } };
    case 'done':
      return {
        type: 'done',
        data: {
          content: event.data.content,
          citations: (event.data.knowledgeUsed ?? []).map((k) => ({ ref: k.ref, sourceName: k.sourceName, section: k.section, page: k.page })),
        },
      };
    case 'error':
      return event.data.code === ErrorCode.apiKeyBudgetExceeded ? chatStreamError(errors.widgetMonthlyLimit(widget.monthlyQuestionLimit)) : event;
    default:
      return undefined;
  }
}

/** An answer admitted before the stream opens; `finish` sends its events (its failures are `error` events). */
export interface WidgetAnswer {
  finish(): Promise<void>;
}

/** The widget's monthly ceiling (its caller's monthly budget), before anything runs: 402 `WIDGET_MONTHLY_LIMIT`. */
async function assertCeiling(ctx: ServiceContext, widget: Widget): Promise<void> {
  try {
    await assertKeyBudget(ctx);
  } catch (err) {
    if (isDomainError(err) && err.code === ErrorCode.apiKeyBudgetExceeded) throw errors.widgetMonthlyLimit(widget.monthlyQuestionLimit);
    throw err;
  }
}

/**
 * `POST /widget/:publicId/chat`: validates the question, checks the widget's answerer and its monthly
 * ceiling (402 `WIDGET_MONTHLY_LIMIT`), then answers from the documents the workspace chose, metered to
 * the workspace; nothing of the visitor is stored (the panel keeps the conversation and sends it back as
 * `history`). Whatever this throws precedes the stream.
 */
export async function startWidgetChat(ctx: ServiceContext, raw: unknown, sink: (event: WidgetStreamEvent) => void): Promise<WidgetAnswer> {
  const { widget } = visitorOf(ctx);
  const input = WidgetChatSchema.parse(raw ?? {});
  return widget.family === 'light' ? lightAnswer(ctx, widget, input, sink) : agentAnswer(ctx, widget, input, sink);
}

type VisitorQuestion = ReturnType<typeof WidgetChatSchema.parse>;

/**
 * An agent widget: the agent's chat turn, only from its chosen documents — no tools, no colleagues, no
 * memory read or written, no session — streamed token by token; the rest of the turn
 * (`finishStreamedTurn`) reports its failures in-stream.
 */
async function agentAnswer(ctx: ServiceContext, widget: Widget, input: VisitorQuestion, sink: (event: WidgetStreamEvent) => void): Promise<WidgetAnswer> {
  const agentId = widget.agentId ?? '';
  const agent = await ctx.em.findOne(Agent, { id: agentId, workspaceId: ctx.caller.workspace.id });
  if (!agent) throw errors.notFound('agent', agentId);
  // Links may have been removed since the widget was made: it never answers beyond chosen documents.
  if ((agent.collectionScope ?? []).length === 0) throw errors.widgetAgentUnscoped(agent.id);
  await assertCeiling(ctx, widget);
  const pending = await startTurn(
    ctx,
    {
      message: input.message,
      knowledge: { enabled: true },
      tools: { enabled: false },
      consult: { enabled: false },
      options: { reflection: false },
    },
    {
      agentId: agent.id,
      route: WIDGET_CHAT_ROUTE,
      sink: (event) => {
        const out = toWidgetEvent(widget, event);
        if (out) sink(out);
      },
      conversation: input.history ?? [],
      recall: false,
    },
  );
  return { finish: () => finishStreamedTurn(pending) };
}

/**
 * A light widget: the light family's `ask` on the widget's dossier (answers only from its documents with
 * citations, or refuses saying they do not cover the question), run before the stream opens — light
 * answers whole, so the panel gets it as one token, then `done`.
 */
async function lightAnswer(ctx: ServiceContext, widget: Widget, input: VisitorQuestion, sink: (event: WidgetStreamEvent) => void): Promise<WidgetAnswer> {
  const dossierId = widget.dossierId ?? '';
  if (!(await findDossier(ctx, dossierId))) throw errors.notFound('dossier', dossierId);
  await assertCeiling(ctx, widget);
  const answer = await ask(ctx, { question: input.message, history: input.history ?? [], dossierId });
  return {
    finish: async () => {
      sink({ type: 'token', data: { delta: answer.answer } });
      sink({
        type: 'done',
        data: { content: answer.answer, citations: answer.citations.map((c) => ({ ref: c.ref, sourceName: c.sourceName, section: c.section, page: c.page })) },
      });
    },
  };
}
