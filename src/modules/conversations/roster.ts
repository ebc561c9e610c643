/**
 * Who sits at the table (docs/debates.md, "The roster"): the regular debaters, named or drawn from the
 * workspace by relevance to the topic, and exactly one devil's advocate, created by the workspace's
 * first debate when it has none.
 */
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { isPoste, Agent } from '../agents/index.js';
import { agentNotFound, loadWorkspaceAgents } from '../agents/index.js';
import { rank } from '../models/index.js';
import { contentStems } from '../models/index.js';
import type { StoredParticipant } from './conversation.entity.js';
import { DEBATE_LIMITS } from './conversations.schemas.js';

/** The contrarian persona a workspace's first debate creates (SPEC Agent kind 3: it then appears in the agent list). */
export const DEVILS_ADVOCATE_PERSONA = {
  name: "Devil's Advocate",
  role: 'Contrarian critic',
  personality: 'Sceptical, direct and courteous; enjoys testing an idea until it breaks.',
  mission: 'Argue against the emerging consensus of a debate and name its weakest point.',
  decisionStyle: 'Looks for the weakest assumption, the missing evidence and the costliest way the consensus could fail.',
  systemPrompt:
    'Take the side the others leave empty. Name the weakest point of their consensus in one sentence beginning with "Weakest point:", then say what would settle it. Stay factual and cite passages when you use them.',
} as const;

export const participantOf = (agent: Agent, isDevilsAdvocate: boolean): StoredParticipant => ({
  agentId: agent.id,
  name: agent.name,
  role: agent.role,
  isDevilsAdvocate,
});

/** Agents that can debate as regulars: conversational (not postes) and not flagged devil's advocate. */
const regular = (a: Agent) => !isPoste(a) && !a.isDevilsAdvocate;

export interface Roster {
  debaters: Agent[];
  /** The workspace's devil's advocate, or undefined when this debate must create it. */
  devilsAdvocate?: Agent;
}

/**
 * The regular debaters (named ones in the order given; otherwise the most relevant to the topic, ties
 * to the oldest) and the workspace's devil's advocate if it has one. 404 for an unknown agent; 400
 * naming `agentIds` for a poste, a devil's advocate among the named, or fewer than two regulars.
 */
export async function seatDebaters(ctx: ServiceContext, topic: string, agentIds: string[] | undefined): Promise<Roster> {
  const agents = await loadWorkspaceAgents(ctx);
  const devilsAdvocate = agents.find((a) => a.isDevilsAdvocate && !isPoste(a));
  let debaters: Agent[];
  if (agentIds) {
    debaters = agentIds.map((id, i) => {
      const agent = agents.find((a) => a.id === id);
      if (!agent) throw agentNotFound(id);
      if (isPoste(agent)) throw errors.validation('agentIds', `agentIds[${i}] is a poste, which cannot debate`);
      if (agent.isDevilsAdvocate) {
        throw errors.validation('agentIds', `agentIds[${i}] is a devil's advocate: the debate seats one by itself; name regular debaters only`);
      }
      return agent;
    });
  } else {
    debaters = drawByRelevance(agents.filter(regular), topic);
  }
  if (debaters.length < DEBATE_LIMITS.agents.min) {
    throw errors.validation(
      'agentIds',
      `A debate needs at least ${DEBATE_LIMITS.agents.min} regular participants (agentIds); the workspace has ${debaters.length} conversational agent(s) that are not devil's advocates`,
    );
  }
  return { debaters, devilsAdvocate };
}

/** The most relevant agents to the topic by name, role and mission; the oldest fill the seats left. */
export function drawByRelevance(candidates: Agent[], topic: string): Agent[] {
  const seats = DEBATE_LIMITS.agents.drawn;
  const ranked = rank(
    candidates.map((a) => ({ text: a.id, stems: contentStems(`${a.name} ${a.role} ${a.mission}`), weight: 1, source: 'persona' as const })),
    contentStems(topic),
  ).map((r) => candidates.find((a) => a.id === r.candidate.text)!);
  const picked = [...ranked];
  for (const a of candidates) if (!picked.includes(a)) picked.push(a);
  return picked.slice(0, seats);
}

/**
 * The workspace's devil's advocate, created when it has none: exactly one however many first debates
 * start together. The find-or-create runs in a transaction under a transaction-scoped advisory lock per
 * workspace (as the proof chain's `svc_chain_head`), so a second debate waits for the first one's commit
 * and then finds its devil's advocate. Called after the debate was admitted: a refused debate creates nothing.
 */
export async function devilsAdvocateOf(ctx: ServiceContext): Promise<Agent> {
  const workspaceId = ctx.caller.workspace.id;
  return ctx.em.transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(hashtext(?), hashtext(?))', ['svc.devils-advocate', workspaceId]);
    const flagged = await em.find(Agent, { workspaceId, isDevilsAdvocate: true }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return flagged.find((a) => !isPoste(a)) ?? createDevilsAdvocate(ctx, em);
  });
}

/** A new devil's advocate, owned by the user whose debate needed it (flushed with `em`'s unit of work). */
function createDevilsAdvocate(ctx: ServiceContext, em: ServiceContext['em']): Agent {
  const now = ctx.clock.now();
  return em.create(Agent, {
    id: newId('agt'),
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    ...DEVILS_ADVOCATE_PERSONA,
    isDevilsAdvocate: true,
    expertise: [],
    outOfScope: [],
    collectionScope: [],
    checklist: [],
    isShared: false,
    createdAt: now,
    updatedAt: now,
  });
}
