import { defineEntity, p } from '@mikro-orm/core';

const AgentSchema = defineEntity({
  name: 'Agent',
  tableName: 'agent',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    userId: p.string(),
    name: p.text(),
    role: p.text(),
    personality: p.text(),
    mission: p.text(),
    decisionStyle: p.text(),
    systemPrompt: p.text(),
    isDevilsAdvocate: p.boolean(),
    expertise: p.json<string[]>(),
    outOfScope: p.json<string[]>(),
    collectionScope: p.json<string[]>(),
    checklist: p.json<string[]>(),
    isShared: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Agent extends AgentSchema.class {}
AgentSchema.setClass(Agent);

/**
 * What a chat turn reads of an agent: its id and the persona's six fields (the prompt, the roster, the
 * planner, a consulted colleague). The turn's read returns the workspace's agents as these plain values,
 * not as entities: mapping each into the identity map cost a turn more with every agent of the workspace.
 */
export type AgentPersona = Pick<Agent, 'id' | 'name' | 'role' | 'personality' | 'mission' | 'decisionStyle' | 'systemPrompt'>;

/** A poste: both personality and decisionStyle empty (SPEC, Agent kind). */
export const isPoste = (a: Pick<Agent, 'personality' | 'decisionStyle'>): boolean =>
  a.personality === '' && a.decisionStyle === '';

const AgentMemorySchema = defineEntity({
  name: 'AgentMemory',
  tableName: 'agent_memory',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    agentId: p.string(),
    userId: p.string(),
    sessionId: p.string().nullable(),
    key: p.text(),
    value: p.text(),
    type: p.string(),
    provenance: p.string(),
    salience: p.double(),
    createdAt: p.datetime(),
  },
});
export class AgentMemory extends AgentMemorySchema.class {}
AgentMemorySchema.setClass(AgentMemory);
