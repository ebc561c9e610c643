/**
 * Managing a workspace's embeddable widgets (`/engine/widgets`, scope `engine`; GraphQL `widgets`...).
 * What visitors do through a widget is in widget-chat.service.ts.
 */
import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { Agent, isPoste } from '../agents/index.js';
import { findDossier, unknownDossier } from '../knowledge/index.js';
import { calendarMonth } from '../usage/index.js';
import { questionsByKeyIds } from '../usage/index.js';
import { Widget, type WidgetFamily } from './widget.entity.js';
import { widgetKeyId } from './widget-caller.js';
import {
  CreateWidgetSchema,
  UpdateWidgetSchema,
  type WidgetDto,
} from './widgets.schemas.js';

export function toWidgetDto(w: Widget, questionsThisMonth: number): WidgetDto {
  return {
    id: w.id,
    publicId: w.publicId,
    name: w.name,
    greeting: w.greeting ?? null,
    family: w.family,
    agentId: w.agentId ?? null,
    dossierId: w.dossierId ?? null,
    allowedOrigins: w.allowedOrigins,
    monthlyQuestionLimit: w.monthlyQuestionLimit,
    ipRatePerMinute: w.ipRatePerMinute,
    questionsThisMonth,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

/** A public identifier: unguessable, so knowing one widget's says nothing about another's. */
const newPublicId = (): string => `wgt_pub_${randomBytes(12).toString('base64url')}`;

const widgetNotFound = (id: string) => errors.notFound('widget', id);

async function findWidget(ctx: ServiceContext, id: string): Promise<Widget> {
  if (id.includes('\u0000')) throw widgetNotFound(id);
  const widget = await ctx.em.findOne(Widget, { id, workspaceId: ctx.caller.workspace.id });
  if (!widget) throw widgetNotFound(id);
  return widget;
}

/** The widgets as read, with the questions each answered this calendar month (one query for all). */
async function withUsage(ctx: ServiceContext, widgets: Widget[]): Promise<WidgetDto[]> {
  const used = await questionsByKeyIds(ctx.em, ctx.caller.workspace.id, widgets.map((w) => widgetKeyId(w.id)), calendarMonth(ctx.clock.now()));
  return widgets.map((w) => toWidgetDto(w, used.get(widgetKeyId(w.id)) ?? 0));
}

/** What answers a widget's visitors, as stored: an agent, or a dossier for the light family. */
interface Answerer {
  family: WidgetFamily;
  agentId: string | null;
  dossierId: string | null;
}

/**
 * What answers the widget must be able to, never beyond documents the workspace chose: an agent widget
 * names a conversational agent of the workspace limited to chosen documents or dossiers (400
 * `widget_agent_unscoped` otherwise); a light widget names the dossier it answers from (light would
 * otherwise read every document of the workspace).
 */
async function checkAnswerer(ctx: ServiceContext, { family, agentId, dossierId }: Answerer): Promise<void> {
  if (family === 'agent') {
    if (dossierId) throw errors.validation('dossierId', "An agent widget answers from its agent's documents: leave dossierId out");
    if (!agentId) throw errors.validation('agentId', 'agentId is required for an agent widget');
    const agent = agentId.includes('\u0000') ? null : await ctx.em.findOne(Agent, { id: agentId, workspaceId: ctx.caller.workspace.id });
    if (!agent) throw errors.validation('agentId', `Agent not found: ${agentId}`);
    if (isPoste(agent)) throw errors.validation('agentId', `Agent ${agentId} is a poste, which cannot be chatted with`);
    if ((agent.collectionScope ?? []).length === 0) throw errors.widgetAgentUnscoped(agentId);
    return;
  }
  if (agentId) throw errors.validation('agentId', `A ${family} widget has no agent: leave agentId out`);
  if (!dossierId) throw errors.validation('dossierId', 'dossierId is required for a light widget: it answers from one dossier');
  if (!(await findDossier(ctx, dossierId))) throw unknownDossier();
}

export async function listWidgets(ctx: ServiceContext): Promise<WidgetDto[]> {
  const widgets = await ctx.em.find(Widget, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return withUsage(ctx, widgets);
}

export async function getWidget(ctx: ServiceContext, id: string): Promise<WidgetDto> {
  return (await withUsage(ctx, [await findWidget(ctx, id)]))[0];
}

export async function createWidget(ctx: ServiceContext, input: unknown): Promise<WidgetDto> {
  const data = CreateWidgetSchema.parse(input ?? {});
  const answerer: Answerer = { family: data.family, agentId: data.agentId ?? null, dossierId: data.dossierId ?? null };
  await checkAnswerer(ctx, answerer);
  const now = ctx.clock.now();
  const widget = ctx.em.create(Widget, {
    id: newId('wgt'),
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    publicId: newPublicId(),
    name: data.name.trim(),
    greeting: data.greeting?.trim() || null,
    ...answerer,
    allowedOrigins: data.allowedOrigins,
    monthlyQuestionLimit: data.monthlyQuestionLimit,
    ipRatePerMinute: data.ipRatePerMinute,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return toWidgetDto(widget, 0);
}

/** Partial update; the answerer is checked again as a whole (family and agent together). */
export async function updateWidget(ctx: ServiceContext, id: string, input: unknown): Promise<WidgetDto> {
  const data = UpdateWidgetSchema.parse(input ?? {});
  const widget = await findWidget(ctx, id);
  const family = data.family ?? widget.family;
  // Changing family drops what the other family needed, unless it is sent (and then refused).
  const kept = (sent: string | null | undefined, stored: string | null | undefined, own: boolean) => sent ?? (own ? (stored ?? null) : null);
  const answerer: Answerer = {
    family,
    agentId: kept(data.agentId, widget.agentId, family === 'agent'),
    dossierId: kept(data.dossierId, widget.dossierId, family === 'light'),
  };
  if (data.family != null || data.agentId != null || data.dossierId != null) await checkAnswerer(ctx, answerer);
  Object.assign(widget, answerer);
  if (data.name != null) widget.name = data.name.trim();
  if (data.greeting != null) widget.greeting = data.greeting.trim() || null;
  if (data.allowedOrigins != null) widget.allowedOrigins = data.allowedOrigins;
  if (data.monthlyQuestionLimit != null) widget.monthlyQuestionLimit = data.monthlyQuestionLimit;
  if (data.ipRatePerMinute != null) widget.ipRatePerMinute = data.ipRatePerMinute;
  widget.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  return (await withUsage(ctx, [widget]))[0];
}

/** Deletes the widget: its script tag answers 404 from now on; what it consumed stays in the ledger. */
export async function deleteWidget(ctx: ServiceContext, id: string): Promise<void> {
  const widget = await findWidget(ctx, id);
  await ctx.em.nativeDelete(Widget, { id: widget.id, workspaceId: widget.workspaceId });
}
