/**
 * Postes (issue 16, docs/postes.md): task agents installed from the catalogue, listed, and run on a
 * dossier. A run takes each control point of the poste's checklist, retrieves from the dossier, has the
 * model answer with `[n]` citations, and checks every answered item with the verifier against the
 * passages it cites. One admission meters the whole run; the report gets a proof certificate.
 */
import type { ServiceContext } from '../../core/context.js';
import type { Em } from '../../db/types.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import type { Clock } from '../../lib/clock.js';
import { Agent } from '../agents/index.js';
import type { KnowledgeUsedItem } from '../chat/index.js';
import { findDossier, unknownDossier } from '../knowledge/index.js';
import { KnowledgeSource, type KnowledgeCollection } from '../knowledge/index.js';
import { searchItems } from '../knowledge/index.js';
import { citedRefs, declined, groundedMessages } from '../light/index.js';
import { toCitation } from '../light/index.js';
import { MeteredModel } from '../models/index.js';
import { canonicalJson, issueProof } from '../proofs/index.js';
import { assertCanConsume } from '../usage/index.js';
import { Verifier } from '../verify/index.js';
import { User } from '../workspaces/index.js';
import { POSTE_CATALOGUE, templateOf, type PosteTemplate } from './catalogue.js';
import { Poste, PosteRun } from './poste.entity.js';
import {
  InstallPosteSchema,
  ListPosteRunsQuerySchema,
  RunPosteSchema,
  type InstallPosteInput,
  type ItemVerdict,
  type PosteDto,
  type PosteItem,
  type PosteRunDto,
} from './postes.schemas.js';

export const RUN_ROUTE = 'POST /v1/postes/:key/run';
/** Passages read per control point. */
export const ITEM_TOP_K = 5;
const NOT_FOUND = 'Not found in the dossier.';

export const posteNotFound = (key: string) => errors.notFound('poste', key);

export function toPosteDto(p: Poste, agent: Agent): PosteDto {
  return { key: p.key, agentId: agent.id, name: agent.name, checklist: agent.checklist ?? [] };
}

export function toRunDto(r: PosteRun): PosteRunDto {
  return {
    id: r.id,
    posteKey: r.posteKey,
    dossierId: r.dossierId,
    status: r.status,
    items: r.items,
    proofId: r.proofId ?? null,
    totalTokens: r.totalTokens,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

/**
 * Installs a template as an agent of the workspace (empty personality and decision style: a poste) and
 * records it under its key, in one transaction. A second install of the key is 409 `poste_already_installed`.
 */
async function install(em: Em, clock: Clock, workspaceId: string, userId: string, template: PosteTemplate): Promise<{ poste: Poste; agent: Agent }> {
  const existing = await em.findOne(Poste, { workspaceId, key: template.key });
  if (existing) throw errors.posteAlreadyInstalled(template.key, existing.agentId);
  const now = clock.now();
  return em.transactional(async (tx) => {
    const agent = tx.create(Agent, {
      id: newId('agt'),
      workspaceId,
      userId,
      name: template.name,
      role: template.role,
      personality: '',
      mission: template.mission,
      decisionStyle: '',
      systemPrompt: template.systemPrompt,
      isDevilsAdvocate: false,
      expertise: [],
      outOfScope: [],
      collectionScope: [],
      checklist: [...template.checklist],
      isShared: false,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush(); // the agent first: the poste row refers to it
    const poste = tx.create(Poste, { id: newId('pst'), workspaceId, key: template.key, agentId: agent.id, installedBy: userId, createdAt: now });
    await tx.flush();
    return { poste, agent };
  }).catch((err: unknown) => {
    // Two installs at once: the unique (workspace, key) decides, the loser gets the same 409.
    if (err instanceof Error && err.name === 'UniqueConstraintViolationException') throw errors.posteAlreadyInstalled(template.key, '');
    throw err;
  });
}

function templateFor(key: string): PosteTemplate {
  const template = templateOf(key.trim());
  if (!template) throw errors.unknownPosteTemplate(key, POSTE_CATALOGUE.map((t) => t.key));
  return template;
}

/** The console's install (GraphQL `installPoste`), by a signed-in person. */
export async function installPoste(ctx: ServiceContext, input: unknown): Promise<PosteDto> {
  const { key } = InstallPosteSchema.parse(input ?? {});
  const { poste, agent } = await install(ctx.em, ctx.clock, ctx.caller.workspace.id, ctx.caller.user.id, templateFor(key));
  return toPosteDto(poste, agent);
}

/** The operator's install (`npm run svc -- poste install <workspace> --key <key>`), as the workspace's oldest user. */
export async function installPosteAsOperator(actx: { em: Em; clock: Clock }, workspaceId: string, input: InstallPosteInput): Promise<PosteDto> {
  const { key } = InstallPosteSchema.parse(input ?? {});
  const template = templateFor(key);
  const owner = await actx.em.findOne(User, { workspaceId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  if (!owner) throw errors.notFound('workspace', workspaceId);
  const { poste, agent } = await install(actx.em, actx.clock, workspaceId, owner.id, template);
  return toPosteDto(poste, agent);
}

/** `GET /v1/postes`: the installed postes, oldest first. */
export async function listPostes(ctx: ServiceContext): Promise<PosteDto[]> {
  const postes = await ctx.em.find(Poste, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const agents = await ctx.em.find(Agent, { workspaceId: ctx.caller.workspace.id, id: { $in: postes.map((p) => p.agentId) } });
  return postes.flatMap((p) => {
    const agent = agents.find((a) => a.id === p.agentId);
    return agent ? [toPosteDto(p, agent)] : [];
  });
}

/** The catalogue, with whether each template is installed in the workspace. */
export async function listCatalogue(ctx: ServiceContext) {
  const installed = new Set((await ctx.em.find(Poste, { workspaceId: ctx.caller.workspace.id }, { fields: ['key'] })).map((p) => p.key));
  return POSTE_CATALOGUE.map((t) => ({ key: t.key, name: t.name, role: t.role, mission: t.mission, checklist: [...t.checklist], installed: installed.has(t.key) }));
}

/** `GET /v1/postes/runs/:id`. */
export async function getPosteRun(ctx: ServiceContext, id: string): Promise<PosteRunDto> {
  const run = id.length > 64 || id.includes('\u0000') ? null : await ctx.em.findOne(PosteRun, { id, workspaceId: ctx.caller.workspace.id });
  if (!run) throw errors.notFound('posteRun', id);
  return toRunDto(run);
}

/** `GET /v1/postes/runs`: the workspace's poste runs with their reports, newest first (optionally of one poste or dossier). */
export async function listPosteRuns(ctx: ServiceContext, input: unknown): Promise<PosteRunDto[]> {
  const q = ListPosteRunsQuerySchema.parse(input ?? {});
  const runs = await ctx.em.find(
    PosteRun,
    {
      workspaceId: ctx.caller.workspace.id,
      ...(q.posteKey !== undefined ? { posteKey: q.posteKey } : {}),
      ...(q.dossierId !== undefined ? { dossierId: q.dossierId } : {}),
    },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: q.limit },
  );
  return runs.map(toRunDto);
}

/** Progress of a run, for the SSE form: the run opened, then each item as it is done. */
export type RunProgress =
  | { type: 'start'; data: { runId: string; posteKey: string; dossierId: string; total: number } }
  | { type: 'item'; data: { index: number; total: number; item: PosteItem } };

/** A run checked and admitted, ready to execute (the SSE route opens its stream in between). */
export interface PreparedRun {
  ctx: ServiceContext;
  agent: Agent;
  dossier: KnowledgeCollection;
  run: PosteRun;
  model: MeteredModel;
  instructions: string | null;
}

/**
 * Everything that can refuse a run, before it starts (the caller's scope is the operation's need): input, the poste (404), the dossier (400
 * `Dossier not found`, 400 `dossier_empty`), the allowance (402). Then the run row is written (`running`).
 */
export async function prepareRun(ctx: ServiceContext, input: unknown): Promise<PreparedRun> {
  const q = RunPosteSchema.parse(input ?? {});
  const workspaceId = ctx.caller.workspace.id;
  const key = q.key.trim();
  const poste = key.length > 100 ? null : await ctx.em.findOne(Poste, { workspaceId, key });
  const agent = poste ? await ctx.em.findOne(Agent, { id: poste.agentId, workspaceId }) : null;
  if (!poste || !agent) throw posteNotFound(key);
  const dossier = await findDossier(ctx, q.dossierId);
  if (!dossier) throw unknownDossier();
  if ((await ctx.em.count(KnowledgeSource, { workspaceId, collectionId: dossier.id, status: 'ready' })) === 0) throw errors.dossierEmpty(dossier.id);
  const admission = await assertCanConsume(ctx, { feature: 'chat' });
  const now = ctx.clock.now();
  const run = ctx.em.create(PosteRun, {
    id: newId('prun'),
    workspaceId,
    posteKey: key,
    agentId: agent.id,
    dossierId: dossier.id,
    userId: ctx.caller.user.id,
    status: 'running',
    instructions: q.instructions ?? null,
    items: [],
    proofId: null,
    totalTokens: 0,
    createdAt: now,
    finishedAt: null,
  });
  await ctx.em.flush();
  const model = new MeteredModel(ctx.app.models.default(), { meter: admission, route: RUN_ROUTE, signal: ctx.signal });
  return { ctx, agent, dossier, run, model, instructions: q.instructions?.trim() || null };
}

const stripMarkers = (text: string) => text.replace(/\s*\[\d+(?:\s*,\s*\d+)*\]/g, '');

function verdictOf(counts: { supported: number; contradicted: number; unverifiable: number }): ItemVerdict {
  if (counts.contradicted > 0) return 'contradicted';
  const total = counts.supported + counts.unverifiable;
  if (total > 0 && counts.supported === total) return 'supported';
  return counts.supported > 0 ? 'partially_supported' : 'unverifiable';
}

/** One control point: retrieval in the dossier, the cited answer, the verifier against the cited passages. */
async function runItem(p: PreparedRun, checkpoint: string): Promise<PosteItem> {
  const { ctx, agent, dossier } = p;
  const passages: KnowledgeUsedItem[] = await searchItems(ctx, {
    workspaceId: ctx.caller.workspace.id,
    query: checkpoint,
    topK: ITEM_TOP_K,
    scope: { kind: 'some', sourceIds: [], collectionIds: [dossier.id] },
  });
  const notFound: PosteItem = { checkpoint, finding: NOT_FOUND, citations: [], verdict: 'not_found', verification: null };
  if (passages.length === 0) return notFound;
  const instructions = [agent.systemPrompt, `Your mission: ${agent.mission}`, p.instructions ? `Instructions for this run: ${p.instructions}` : '']
    .filter(Boolean)
    .join('\n');
  const req = groundedMessages({
    instructions,
    passages: passages.map((x) => ({ ref: x.ref, text: x.text, sourceName: x.sourceName, section: x.section })),
    question: `Control point: ${checkpoint}\nWhat does the dossier say about it?`,
  });
  const result = await p.model.call({ messages: req.messages, material: req.material, temperature: 0.1, maxTokens: 600 });
  const finding = result.content.trim();
  const refs = citedRefs(finding, passages.length);
  if (declined(finding) || refs.length === 0) return notFound;
  const cited = refs.map((r) => passages[r - 1]!);
  const verifier = new Verifier(finding, () => {
    if (ctx.signal?.aborted) throw errors.turnAborted();
  });
  await verifier.addPassages(cited.map((c) => ({ source: c.sourceName, content: c.text, sourceId: c.sourceId, chunkId: c.chunkId })));
  const claims = await verifier.verify(stripMarkers(finding));
  const counts = { supported: 0, contradicted: 0, unverifiable: 0 };
  for (const c of claims) counts[c.verdict]++;
  return { checkpoint, finding, citations: cited.map(toCitation), verdict: verdictOf(counts), verification: { counts, claims } };
}

/**
 * Runs a prepared run to its end: every control point in checklist order, progress reported through
 * `onProgress`; then the usage recorded once, the certificate issued and the report stored. A failure
 * (the model, the client leaving) marks the run `failed`, metered on what ran, and is rethrown.
 */
export async function executeRun(p: PreparedRun, onProgress?: (event: RunProgress) => void): Promise<PosteRunDto> {
  const { ctx, run, model, agent } = p;
  const checklist = agent.checklist ?? [];
  onProgress?.({ type: 'start', data: { runId: run.id, posteKey: run.posteKey, dossierId: run.dossierId, total: checklist.length } });
  const items: PosteItem[] = [];
  try {
    for (const [index, checkpoint] of checklist.entries()) {
      const item = await runItem(p, checkpoint);
      items.push(item);
      onProgress?.({ type: 'item', data: { index, total: checklist.length, item } });
    }
    await model.record();
  } catch (err) {
    await model.recordUnfinished(ctx.log);
    run.status = 'failed';
    run.items = items;
    run.totalTokens = model.usage.totalTokens;
    run.finishedAt = ctx.clock.now();
    await ctx.em.fork().nativeUpdate(PosteRun, { id: run.id }, { status: 'failed', items, totalTokens: run.totalTokens, finishedAt: run.finishedAt });
    throw err;
  }
  const { id: proofId } = await issueProof(ctx, {
    route: RUN_ROUTE,
    modelAddress: `poste:${run.posteKey}`,
    model: model.provider.model,
    request: { key: run.posteKey, dossierId: run.dossierId, instructions: run.instructions ?? null },
    answer: canonicalJson({ runId: run.id, items: items.map((i) => ({ checkpoint: i.checkpoint, finding: i.finding, verdict: i.verdict })) }),
    usage: model.usage,
  });
  const finishedAt = ctx.clock.now();
  await ctx.em.fork().nativeUpdate(PosteRun, { id: run.id }, { status: 'completed', items, proofId, totalTokens: model.usage.totalTokens, finishedAt });
  return { ...toRunDto(run), status: 'completed', items, proofId, totalTokens: model.usage.totalTokens, finishedAt: finishedAt.toISOString() };
}

/** `POST /v1/postes/:key/run` in one call (no progress). Exported for the MCP tool `poste_run`. */
export async function runPoste(ctx: ServiceContext, input: unknown, onProgress?: (event: RunProgress) => void): Promise<PosteRunDto> {
  return executeRun(await prepareRun(ctx, input), onProgress);
}
