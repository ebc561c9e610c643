/**
 * The prompt of a turn: the persona's six fields, the roster of colleagues, recalled memories,
 * context blocks, numbered passages, then the session history and the message. The same facts go
 * to `material` for the local model, which reads structure rather than prose.
 */
import type { AgentPersona } from '../agents/index.js';
import type { ChatMessage, PersonaMaterial, TurnMaterial } from '../models/index.js';
import { contextSection, type RenderedBlock } from './context-blocks.js';
import type { RecalledMemory } from './memory.js';
import type { KnowledgeUsedItem } from './turn-extensions.js';

export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface PromptParts {
  agent: AgentPersona;
  colleagues: AgentPersona[];
  memories: RecalledMemory[];
  blocks: RenderedBlock[];
  passages: KnowledgeUsedItem[];
  /** Answers of colleagues consulted before answering. */
  consulted: { name: string; answer: string }[];
  thoughts?: string;
  json?: { fields?: Record<string, string>; schema?: string };
  history: HistoryMessage[];
  message: string;
}

export function personaOf(agent: AgentPersona): PersonaMaterial {
  return {
    name: agent.name,
    role: agent.role,
    personality: agent.personality,
    mission: agent.mission,
    decisionStyle: agent.decisionStyle,
    systemPrompt: agent.systemPrompt,
  };
}

/** The six persona fields, each injected (SPEC, Agent rule 1). */
export function personaSection(agent: AgentPersona): string {
  return [
    `You are ${agent.name}, ${agent.role}.`,
    `Personality: ${agent.personality}`,
    `Mission: ${agent.mission}`,
    `Decision style: ${agent.decisionStyle}`,
    `Instructions: ${agent.systemPrompt}`,
  ].join('\n');
}

export function rosterSection(colleagues: AgentPersona[]): string | undefined {
  if (colleagues.length === 0) return undefined;
  const lines = colleagues.map((c) => `- ${c.name} (${c.role}): ${c.mission}`);
  return `Your colleagues in this workspace:\n${lines.join('\n')}`;
}

function memorySection(memories: RecalledMemory[]): string | undefined {
  if (memories.length === 0) return undefined;
  return `What you remember from earlier conversations:\n${memories.map((m) => `- ${m.key}: ${m.value}`).join('\n')}`;
}

export function passageSection(passages: KnowledgeUsedItem[]): string | undefined {
  if (passages.length === 0) return undefined;
  const parts = passages.map((p) => {
    const where = [p.sourceName, p.section, p.page ? `p. ${p.page}` : ''].filter(Boolean).join(', ');
    return `[${p.ref}] (${where})\n${p.text}`;
  });
  return `Passages from the workspace's documents. Cite the ones you use with their number, like [1]:\n\n${parts.join('\n\n')}`;
}

function consultedSection(consulted: PromptParts['consulted']): string | undefined {
  if (consulted.length === 0) return undefined;
  return `Your colleagues answered you:\n${consulted.map((c) => `- ${c.name}: ${c.answer}`).join('\n')}`;
}

export function jsonSection(json: PromptParts['json']): string | undefined {
  if (!json) return undefined;
  if (json.fields && Object.keys(json.fields).length > 0) {
    const lines = Object.entries(json.fields).map(([k, v]) => `- "${k}": ${v}`);
    return `Answer with one JSON object with these fields:\n${lines.join('\n')}`;
  }
  if (json.schema) return `Answer with one JSON object following this schema:\n${json.schema}`;
  return 'Answer with one JSON object.';
}

export function systemPrompt(p: Omit<PromptParts, 'history' | 'message'>): string {
  return [
    personaSection(p.agent),
    rosterSection(p.colleagues),
    memorySection(p.memories),
    contextSection(p.blocks),
    passageSection(p.passages),
    consultedSection(p.consulted),
    p.thoughts ? `Your preliminary reasoning for this answer:\n${p.thoughts}` : undefined,
    jsonSection(p.json),
  ]
    .filter((s): s is string => Boolean(s))
    .join('\n\n');
}

export function buildPrompt(p: PromptParts): { messages: ChatMessage[]; material: TurnMaterial } {
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(p) },
    ...p.history.map((h) => ({ role: h.role, content: h.content })),
    { role: 'user', content: p.message },
  ];
  return { messages, material: materialOf(p) };
}

export function materialOf(p: Omit<PromptParts, 'history' | 'message'>): TurnMaterial {
  return {
    persona: personaOf(p.agent),
    contextBlocks: [
      ...p.blocks.map((b) => ({ heading: b.heading, text: b.text, high: b.high })),
      ...p.consulted.map((c) => ({ heading: `Colleague ${c.name}`, text: c.answer, high: false })),
    ],
    memories: p.memories,
    passages: p.passages.map((x) => ({ ref: x.ref, text: x.text, sourceName: x.sourceName, section: x.section })),
    ...(p.json?.fields ? { jsonFields: p.json.fields } : {}),
    ...(p.json?.schema ? { jsonSchema: p.json.schema } : {}),
  };
}
