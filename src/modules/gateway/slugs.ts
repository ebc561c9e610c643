import { isPoste, type Agent } from '../agents/index.js';

/** `Ada Lovelace` → `ada-lovelace`; accents folded, anything else becomes a dash; never empty. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug || 'agent';
}

/**
 * Slugs of the conversational agents, unique in the workspace. Agents are taken oldest first (the
 * order of `loadWorkspaceAgents`); a taken slug gets `-2`, `-3`... so the oldest agent keeps the
 * plain one and the assignment is the same on every call. Postes have no address.
 */
export function assignSlugs(agentsOldestFirst: readonly Agent[]): { slug: string; agent: Agent }[] {
  const taken = new Set<string>();
  const out: { slug: string; agent: Agent }[] = [];
  for (const agent of agentsOldestFirst) {
    if (isPoste(agent)) continue;
    const base = slugify(agent.name);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    out.push({ slug, agent });
  }
  return out;
}
