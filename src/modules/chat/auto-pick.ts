/**
 * Auto-pick (docs/chat.md, "Auto-pick"): one agent is chosen for each message from the message and
 * every agent's name, role and mission, postes included. The local model decides lexically; a remote
 * model is asked in JSON mode. Undecided: the oldest agent that can answer (else the oldest agent).
 */
import { isPoste, type AgentPersona } from '../agents/index.js';
import { rank, type Candidate } from '../models/index.js';
import { contentStems, foldText, words } from '../models/index.js';
import type { PiiMasker } from '../../lib/pii.js';
import { PLANNING_FAILED, type TurnModel } from './turn-model.js';

export interface Plan {
  agent: AgentPersona;
  /** How the agent was chosen. */
  decidedBy: 'only-agent' | 'lexical' | 'model' | 'fallback';
}

/**
 * `agents` oldest first, holding at least one conversational agent. The planner sees postes too (SPEC:
 * auto-pick considers them), but a chat is never sent to one: a poste it picks gives way to the
 * conversational agent the lexical rule prefers, else the oldest conversational agent.
 */
export async function planAgent(model: TurnModel, agents: AgentPersona[], message: string, masker: PiiMasker): Promise<Plan> {
  const plan = await planAmong(model, agents, message, masker);
  if (!isPoste(plan.agent)) return plan;
  const picked = pickLexically(agents.filter((a) => !isPoste(a)), message);
  return picked ? { agent: picked, decidedBy: 'lexical' } : { agent: fallbackAgent(agents), decidedBy: 'fallback' };
}

async function planAmong(model: TurnModel, agents: AgentPersona[], message: string, masker: PiiMasker): Promise<Plan> {
  if (agents.length === 1) return { agent: agents[0]!, decidedBy: 'only-agent' };
  if (model.provider.local) {
    const picked = pickLexically(agents, message);
    return picked ? { agent: picked, decidedBy: 'lexical' } : { agent: fallbackAgent(agents), decidedBy: 'fallback' };
  }
  const result = await model.complete(
    {
      messages: [
        { role: 'system', content: plannerPrompt(agents) },
        { role: 'user', content: masker.mask(message) },
      ],
      json: true,
      temperature: 0,
      maxTokens: 100,
    },
    PLANNING_FAILED,
  );
  const picked = agentNamedIn(result.content, agents);
  return picked ? { agent: picked, decidedBy: 'model' } : { agent: fallbackAgent(agents), decidedBy: 'fallback' };
}

function plannerPrompt(agents: AgentPersona[]): string {
  const lines = agents.map((a) => `- id: ${a.id} | name: ${a.name} | role: ${a.role} | mission: ${a.mission}`);
  return [
    "You route a user's message to the one agent of the workspace best suited to answer it.",
    `Agents:\n${lines.join('\n')}`,
    'Respond with one JSON object: {"agentId": "<id of the best agent>"}, or {"agentId": null} when no agent fits.',
  ].join('\n\n');
}

/** The agent whose id (or, failing that, exact name) the planner answered. */
function agentNamedIn(content: string, agents: AgentPersona[]): AgentPersona | undefined {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const { agentId, agentName, name } = value as Record<string, unknown>;
  if (typeof agentId === 'string') {
    const byId = agents.find((a) => a.id === agentId);
    if (byId) return byId;
  }
  const wanted = [agentId, agentName, name].find((v): v is string => typeof v === 'string');
  return wanted ? agents.find((a) => foldText(a.name) === foldText(wanted.trim())) : undefined;
}

/**
 * The lexical rule: an agent whose full name appears in the message wins; otherwise the agent whose
 * role and mission share the most (rarity-weighted) words with the message. No shared word: undecided.
 */
export function pickLexically(agents: AgentPersona[], message: string): AgentPersona | undefined {
  const messageWords = ` ${words(message).join(' ')} `;
  const named = agents.find((a) => {
    const name = words(a.name).join(' ');
    return name !== '' && messageWords.includes(` ${name} `);
  });
  if (named) return named;
  const candidates: Candidate[] = agents.map((a) => ({
    text: a.id,
    stems: contentStems(`${a.role} ${a.mission}`),
    weight: 1,
    source: 'persona',
  }));
  const best = rank(candidates, contentStems(message))[0];
  return best ? agents.find((a) => a.id === best.candidate.text) : undefined;
}

export function fallbackAgent(agents: AgentPersona[]): AgentPersona {
  return agents.find((a) => !isPoste(a)) ?? agents[0]!;
}
