/**
 * Dossiers (issue 16): a named folder of documents for one matter (a client case, a deal). A dossier is
 * a knowledge collection of kind `dossier`: search, agent links and the verifier read it like any
 * collection, and knowledge items name it (`collectionId`, `dossierName`). Deleting one keeps its
 * documents, outside any collection, as for collections.
 */
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { deleteCollection } from './collections.service.js';
import { KnowledgeCollection } from './knowledge.entity.js';
import { impossibleId } from './knowledge.lookup.js';
import {
  CreateDossierSchema,
  UpdateDossierSchema,
  type DossierDto,
} from './dossiers.schemas.js';

export const dossierNotFound = (id: string) => errors.notFound('dossier', id);
/** A `dossierId` in a body or a form naming no dossier of the workspace: a 400 naming the field. */
export const unknownDossier = (field = 'dossierId') => errors.validation(field, 'Dossier not found');

/** The dossier of the caller's workspace with this id, or null (a plain collection is not a dossier). */
export async function findDossier(ctx: Pick<ServiceContext, 'em' | 'caller'>, id: string): Promise<KnowledgeCollection | null> {
  if (impossibleId(id)) return null;
  return ctx.em.findOne(KnowledgeCollection, { id, workspaceId: ctx.caller.workspace.id, kind: 'dossier' });
}

async function dossierOr404(ctx: ServiceContext, id: string): Promise<KnowledgeCollection> {
  const dossier = await findDossier(ctx, id);
  if (!dossier) throw dossierNotFound(id);
  return dossier;
}

export async function toDossierDtos(ctx: ServiceContext, dossiers: KnowledgeCollection[]): Promise<DossierDto[]> {
  const counts = new Map<string, number>();
  if (dossiers.length > 0) {
    const rows = await ctx.em.execute<{ collection_id: string; n: string | number }[]>(
      `select collection_id, count(*) as n from knowledge_source where workspace_id = ? and collection_id in (${dossiers.map(() => '?').join(', ')}) group by collection_id`,
      [ctx.caller.workspace.id, ...dossiers.map((d) => d.id)],
    );
    for (const r of rows) counts.set(r.collection_id, Number(r.n));
  }
  return dossiers.map((d) => ({
    id: d.id,
    name: d.name,
    clientName: d.clientName ?? null,
    description: d.description,
    userId: d.userId,
    sourceCount: counts.get(d.id) ?? 0,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  }));
}

export async function toDossierDto(ctx: ServiceContext, dossier: KnowledgeCollection): Promise<DossierDto> {
  return (await toDossierDtos(ctx, [dossier]))[0]!;
}

const blankToNull = (s: string | null | undefined): string | null => (s && s.trim() ? s.trim() : null);

export async function createDossier(ctx: ServiceContext, input: unknown): Promise<KnowledgeCollection> {
  const data = CreateDossierSchema.parse(input ?? {});
  const now = ctx.clock.now();
  const dossier = ctx.em.create(KnowledgeCollection, {
    id: newId('dos'),
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    name: data.name.trim(),
    description: data.description ?? '',
    kind: 'dossier',
    clientName: blankToNull(data.clientName),
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return dossier;
}

/** The workspace's dossiers, oldest first. */
export async function listDossiers(ctx: ServiceContext): Promise<KnowledgeCollection[]> {
  return ctx.em.find(KnowledgeCollection, { workspaceId: ctx.caller.workspace.id, kind: 'dossier' }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function getDossier(ctx: ServiceContext, id: string): Promise<KnowledgeCollection> {
  return dossierOr404(ctx, id);
}

export async function updateDossier(ctx: ServiceContext, id: string, input: unknown): Promise<KnowledgeCollection> {
  const data = UpdateDossierSchema.parse(input ?? {});
  const dossier = await dossierOr404(ctx, id);
  if (data.name !== undefined && data.name !== null) dossier.name = data.name.trim();
  if (data.description !== undefined && data.description !== null) dossier.description = data.description;
  if (data.clientName !== undefined && data.clientName !== null) dossier.clientName = blankToNull(data.clientName);
  dossier.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  return dossier;
}

/** Deletes the dossier; its documents stay in the workspace, outside any collection. */
export async function deleteDossier(ctx: ServiceContext, id: string): Promise<void> {
  const dossier = await dossierOr404(ctx, id);
  await deleteCollection(ctx, dossier.id);
}

/** Every dossier's name and client name in the workspace (what a web query must not carry). */
export async function dossierNames(ctx: Pick<ServiceContext, 'em' | 'caller'>): Promise<string[]> {
  const rows = await ctx.em.find(KnowledgeCollection, { workspaceId: ctx.caller.workspace.id, kind: 'dossier' }, { fields: ['name', 'clientName'] });
  return rows.flatMap((d) => [d.name, d.clientName ?? '']).filter((s) => s.trim().length > 0);
}
