import { defineEntity, p } from '@mikro-orm/core';

export const TOOL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ToolMethod = (typeof TOOL_METHODS)[number];

/** A header as stored: plain value, or a secret sealed with the server key (never returned). */
export type StoredHeader =
  | { name: string; secret: false; value: string }
  | { name: string; secret: true; sealed: string };

const WorkspaceToolSchema = defineEntity({
  name: 'WorkspaceTool',
  tableName: 'workspace_tool',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    userId: p.string(),
    name: p.string(),
    description: p.text(),
    inputSchema: p.json<Record<string, unknown>>(),
    method: p.string().$type<ToolMethod>(),
    urlTemplate: p.text(),
    headers: p.json<StoredHeader[]>(),
    timeoutMs: p.integer(),
    isActive: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
/** An HTTP API of the workspace offered to agents as a function tool. */
export class WorkspaceTool extends WorkspaceToolSchema.class {}
WorkspaceToolSchema.setClass(WorkspaceTool);

const AgentToolLinkSchema = defineEntity({
  name: 'AgentToolLink',
  tableName: 'agent_tool_link',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    agentId: p.string(),
    toolId: p.string(),
    createdAt: p.datetime(),
  },
});
export class AgentToolLink extends AgentToolLinkSchema.class {}
AgentToolLinkSchema.setClass(AgentToolLink);

const ServerSecretSchema = defineEntity({
  name: 'ServerSecret',
  tableName: 'server_secret',
  properties: {
    name: p.string().primary(),
    value: p.text(),
    createdAt: p.datetime(),
  },
});
/** A server-wide secret generated on first start (see secret-box.ts). */
export class ServerSecret extends ServerSecretSchema.class {}
ServerSecretSchema.setClass(ServerSecret);

export const toolEntities = [WorkspaceTool, AgentToolLink, ServerSecret];
