/**
 * Consulting colleagues (docs/chat.md, "Consultation"): the answering agent may ask other
 * conversational agents of the workspace. On every model, a colleague named in the message is
 * consulted before answering; a model that calls tools may also ask through `consult_colleague`.
 */
import { isPoste, type AgentPersona } from '../agents/index.js';
import type { ToolDef } from '../models/index.js';
import { words } from '../models/index.js';
import { personaOf, personaSection } from './prompt.js';
import type { TurnModel } from './turn-model.js';

export const CONSULT_TOOL = 'consult_colleague';
/** Colleagues consulted because the message names them. */
export const MAX_NAMED_CONSULTATIONS = 2;
/** Consultations per turn, whatever asked for them. */
export const MAX_CONSULTATIONS = 3;
/** A colleague's answer is short: it informs the answer, it is not the answer. */
const CONSULT_MAX_TOKENS = 600;

/** Colleagues that can be consulted: conversational agents other than the one answering. */
export function consultable(colleagues: AgentPersona[]): AgentPersona[] {
  return colleagues.filter((c) => !isPoste(c));
}

/** Colleagues whose full name appears in the message as whole words, in roster order. */
export function namedColleagues(colleagues: AgentPersona[], message: string): AgentPersona[] {
  const text = ` ${words(message).join(' ')} `;
  return consultable(colleagues)
    .filter((c) => {
      const name = words(c.name).join(' ');
      return name !== '' && text.includes(` ${name} `);
    })
    .slice(0, MAX_NAMED_CONSULTATIONS);
}

export function consultToolDef(colleagues: AgentPersona[]): ToolDef {
  return {
    name: CONSULT_TOOL,
    description: 'Ask a colleague agent of your workspace for their view before you answer. Use it when their role or mission covers the question better than yours.',
    parameters: {
      type: 'object',
      properties: {
        colleague: { type: 'string', enum: consultable(colleagues).map((c) => c.name), description: 'Name of the colleague' },
        question: { type: 'string', description: 'What you ask them' },
      },
      required: ['colleague', 'question'],
    },
  };
}

/** One completion in the colleague's persona; returns the answer as the model wrote it (masked). */
export async function askColleague(
  model: TurnModel,
  asker: AgentPersona,
  colleague: AgentPersona,
  question: string,
  opts: { temperature: number; maxTokens: number },
): Promise<string> {
  const result = await model.complete({
    messages: [
      {
        role: 'system',
        content: `${personaSection(colleague)}\n\nYour colleague ${asker.name} (${asker.role}) asks for your view. Answer briefly, from your own role and mission.`,
      },
      { role: 'user', content: question },
    ],
    material: { persona: personaOf(colleague) },
    temperature: opts.temperature,
    maxTokens: Math.min(CONSULT_MAX_TOKENS, opts.maxTokens),
  });
  return result.content;
}
