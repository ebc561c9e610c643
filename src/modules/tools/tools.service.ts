import { z } from 'zod';
import type { ServiceContext } from '../../core/context.js';
import { errors, translated } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { validateOutboundUrl } from '../../net/index.js';
import { findAgent } from '../agents/index.js';
import type { SecretBox } from './secret-box.js';
import { executeTool, type ToolOutcome } from './tool-call.js';
import { AgentToolLink, WorkspaceTool, type StoredHeader } from './tool.entity.js';
import {
  CreateToolSchema,
  LinkToolSchema,
  TestToolSchema,
  TOOL_TIMEOUT,
  UpdateToolSchema,
  type HeaderInput,
  type ToolDto,
} from './tools.schemas.js';
import { placeholdersOf, templateProblem } from './url-template.js';

export const toolNotFound = (id: string) => errors.notFound('tool', id);

export function toToolDto(t: WorkspaceTool): ToolDto {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
    method: t.method,
    urlTemplate: t.urlTemplate,
    headers: t.headers.map((h) => ({ name: h.name, secret: h.secret, value: h.secret ? null : h.value })),
    timeoutMs: t.timeoutMs,
    isActive: t.isActive,
    userId: t.userId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** An id no row can have (PostgreSQL text holds no NUL): absent, rather than a failing query. */
const impossibleId = (id: string): boolean => id.includes('\u0000');

async function toolOfWorkspace(ctx: ServiceContext, id: string): Promise<WorkspaceTool | null> {
  return impossibleId(id) ? null : ctx.em.findOne(WorkspaceTool, { id, workspaceId: ctx.caller.workspace.id });
}

export async function findTool(ctx: ServiceContext, id: string): Promise<WorkspaceTool> {
  const tool = await toolOfWorkspace(ctx, id);
  if (!tool) throw toolNotFound(id);
  return tool;
}

/** The input schema must be a JSON Schema of an object that zod can enforce; placeholders must be its properties. */
function checkSchemaAndTemplate(schema: Record<string, unknown>, template: string): void {
  if (schema.type !== 'object') throw errors.validation('inputSchema', 'inputSchema must be a JSON Schema with "type": "object"');
  const props = schema.properties;
  if (props !== undefined && (typeof props !== 'object' || props === null || Array.isArray(props))) {
    throw errors.validation('inputSchema', 'inputSchema.properties must be an object');
  }
  try {
    z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema);
  } catch (err) {
    throw errors.validation('inputSchema', `inputSchema is not a usable JSON Schema: ${(err as Error).message}`);
  }
  const problem = templateProblem(template);
  if (problem) throw errors.validation('urlTemplate', problem);
  const declared = Object.keys((props as Record<string, unknown> | undefined) ?? {});
  const undeclared = placeholdersOf(template).find((p) => !declared.includes(p));
  if (undeclared) throw errors.validation('urlTemplate', `urlTemplate placeholder {${undeclared}} is not a property of inputSchema`);
}

/** The host of the template must be callable under the deployment's rules (checked again at every call). */
async function checkTemplateAddress(ctx: ServiceContext, template: string): Promise<void> {
  const origin = new URL(template.replace(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, 'x')).origin;
  try {
    await validateOutboundUrl(origin, { deployment: ctx.app.config.deployment, resolve: ctx.app.resolve });
  } catch (err) {
    throw translated(err, 'tool.urlTemplate');
  }
}

/** Seals secret values; a secret header sent without a value keeps the stored value of the same name. */
function storeHeaders(box: SecretBox, toolId: string, input: HeaderInput[], previous: StoredHeader[]): StoredHeader[] {
  const seen = new Set<string>();
  return input.map((h, i) => {
    const key = h.name.toLowerCase();
    if (seen.has(key)) throw errors.validation(`headers.${i}.name`, `headers.${i}.name: header ${h.name} is given twice`);
    seen.add(key);
    if (h.secret) {
      if (h.value === undefined || h.value === null) {
        const kept = previous.find((p): p is StoredHeader & { secret: true } => p.secret && p.name.toLowerCase() === key);
        if (!kept) throw errors.validation(`headers.${i}.value`, `headers.${i}.value is required`);
        return { name: h.name, secret: true, sealed: box.seal(box.open(kept.sealed, `${toolId}:${kept.name.toLowerCase()}`), `${toolId}:${key}`) };
      }
      return { name: h.name, secret: true, sealed: box.seal(h.value, `${toolId}:${key}`) };
    }
    if (h.value === undefined || h.value === null) throw errors.validation(`headers.${i}.value`, `headers.${i}.value is required`);
    return { name: h.name, secret: false, value: h.value };
  });
}

async function assertNameFree(ctx: ServiceContext, name: string, exceptId?: string): Promise<void> {
  const clash = await ctx.em.findOne(WorkspaceTool, { workspaceId: ctx.caller.workspace.id, name });
  if (clash && clash.id !== exceptId) throw errors.validation('name', `A tool named ${name} already exists`);
}

const DEFAULT_SCHEMA = { type: 'object', properties: {} };

export async function createTool(ctx: ServiceContext, input: unknown): Promise<WorkspaceTool> {
  const data = CreateToolSchema.parse(input ?? {});
  const schema = data.inputSchema ?? DEFAULT_SCHEMA;
  const template = data.urlTemplate.trim();
  checkSchemaAndTemplate(schema, template);
  await checkTemplateAddress(ctx, template);
  await assertNameFree(ctx, data.name);
  const box = ctx.app.secretBox;
  const id = newId('tool');
  const now = ctx.clock.now();
  const tool = ctx.em.create(WorkspaceTool, {
    id,
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    name: data.name,
    description: data.description.trim(),
    inputSchema: schema,
    method: data.method ?? 'GET',
    urlTemplate: template,
    headers: storeHeaders(box, id, data.headers ?? [], []),
    timeoutMs: data.timeoutMs ?? TOOL_TIMEOUT.default,
    isActive: data.isActive ?? true,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return tool;
}

export async function listTools(ctx: ServiceContext): Promise<WorkspaceTool[]> {
  return ctx.em.find(WorkspaceTool, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function getTool(ctx: ServiceContext, id: string): Promise<WorkspaceTool> {
  return findTool(ctx, id);
}

export async function updateTool(ctx: ServiceContext, id: string, input: unknown): Promise<WorkspaceTool> {
  const data = UpdateToolSchema.parse(input ?? {});
  const tool = await findTool(ctx, id);
  const schema = data.inputSchema ?? tool.inputSchema;
  const template = data.urlTemplate?.trim() ?? tool.urlTemplate;
  if (data.inputSchema || data.urlTemplate) checkSchemaAndTemplate(schema, template);
  if (data.urlTemplate) await checkTemplateAddress(ctx, template);
  if (data.name) await assertNameFree(ctx, data.name, tool.id);
  if (data.headers) tool.headers = storeHeaders(ctx.app.secretBox, tool.id, data.headers, tool.headers);
  if (data.name) tool.name = data.name;
  if (data.description) tool.description = data.description.trim();
  tool.inputSchema = schema;
  tool.urlTemplate = template;
  if (data.method) tool.method = data.method;
  if (data.timeoutMs !== undefined && data.timeoutMs !== null) tool.timeoutMs = data.timeoutMs;
  if (data.isActive !== undefined && data.isActive !== null) tool.isActive = data.isActive;
  tool.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  return tool;
}

/** Deletes the tool; its agent links go with it. */
export async function deleteTool(ctx: ServiceContext, id: string): Promise<void> {
  const tool = await findTool(ctx, id);
  await ctx.em.transactional(async (tx) => {
    await tx.nativeDelete(AgentToolLink, { workspaceId: tool.workspaceId, toolId: tool.id });
    await tx.nativeDelete(WorkspaceTool, { id: tool.id, workspaceId: tool.workspaceId });
  });
}

/** Calls the tool once with the given arguments, as a turn would, and reports the outcome (never a 5xx for a failing API). */
export async function testTool(ctx: ServiceContext, id: string, input: unknown): Promise<ToolOutcome> {
  const data = TestToolSchema.parse(input ?? {});
  const tool = await findTool(ctx, id);
  return executeTool(ctx.app, tool, data.arguments ?? {}, ctx.signal);
}

// ---------------------------------------------------------------------------------------- agent links

/** Tools linked to an agent, in link order (active or not). */
export async function agentTools(ctx: ServiceContext, agentId: string): Promise<WorkspaceTool[]> {
  const workspaceId = ctx.caller.workspace.id;
  const links = await ctx.em.find(AgentToolLink, { workspaceId, agentId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return toolsByIds(ctx, links.map((l) => l.toolId));
}

/** The workspace's tools of these ids, in their order (ids of no tool of the workspace skipped); none asked, no statement. */
export async function toolsByIds(ctx: ServiceContext, ids: readonly string[]): Promise<WorkspaceTool[]> {
  if (ids.length === 0) return [];
  const tools = await ctx.em.find(WorkspaceTool, { workspaceId: ctx.caller.workspace.id, id: { $in: [...ids] } });
  const byId = new Map(tools.map((t) => [t.id, t]));
  return ids.map((id) => byId.get(id)).filter((t): t is WorkspaceTool => t !== undefined);
}

export async function listAgentTools(ctx: ServiceContext, agentId: string): Promise<WorkspaceTool[]> {
  const agent = await findAgent(ctx, agentId);
  return agentTools(ctx, agent.id);
}

export async function linkTool(ctx: ServiceContext, agentId: string, input: unknown): Promise<WorkspaceTool[]> {
  const data = LinkToolSchema.parse(input ?? {});
  const agent = await findAgent(ctx, agentId);
  const workspaceId = ctx.caller.workspace.id;
  const tool = await toolOfWorkspace(ctx, data.toolId);
  if (!tool) throw errors.validation('toolId', 'Tool not found');
  const existing = await ctx.em.findOne(AgentToolLink, { workspaceId, agentId: agent.id, toolId: tool.id });
  if (!existing) {
    ctx.em.create(AgentToolLink, { id: newId('tlnk'), workspaceId, agentId: agent.id, toolId: tool.id, createdAt: ctx.clock.now() });
    await ctx.em.flush();
  }
  return agentTools(ctx, agent.id);
}

export async function unlinkTool(ctx: ServiceContext, agentId: string, toolId: string): Promise<void> {
  const agent = await findAgent(ctx, agentId);
  const n = impossibleId(toolId) ? 0 : await ctx.em.nativeDelete(AgentToolLink, { workspaceId: ctx.caller.workspace.id, agentId: agent.id, toolId });
  if (n === 0) throw errors.notFound('toolLink', toolId);
}

/** Linked tools of each agent, in link order, in the order of `agentIds` (GraphQL batch read). */
export async function loadToolsByAgent(ctx: ServiceContext, agentIds: readonly string[]): Promise<WorkspaceTool[][]> {
  const workspaceId = ctx.caller.workspace.id;
  const links = await ctx.em.find(AgentToolLink, { workspaceId, agentId: { $in: [...agentIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const tools = links.length ? await ctx.em.find(WorkspaceTool, { workspaceId, id: { $in: [...new Set(links.map((l) => l.toolId))] } }) : [];
  const byId = new Map(tools.map((t) => [t.id, t]));
  return agentIds.map((agentId) =>
    links.filter((l) => l.agentId === agentId).map((l) => byId.get(l.toolId)).filter((t): t is WorkspaceTool => t !== undefined),
  );
}
