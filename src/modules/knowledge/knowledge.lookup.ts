import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { KnowledgeCollection, KnowledgeSource } from './knowledge.entity.js';

export const sourceNotFound = (id: string) => errors.notFound('knowledgeSource', id);
export const collectionNotFound = (id: string) => errors.notFound('collection', id);
/** SPEC: a `collectionId` naming no collection of the workspace is a 400 with this text. */
export const unknownCollection = () => errors.validation('collectionId', 'Collection not found');

/**
 * An id from a path, a form field or a body that no row can have (ids are at most 64 characters, and
 * PostgreSQL text holds no NUL): absent, rather than a database error.
 */
export const impossibleId = (id: string): boolean => id.length > 64 || id.includes('\u0000');

export async function findSource(ctx: ServiceContext, id: string): Promise<KnowledgeSource> {
  const source = impossibleId(id) ? null : await ctx.em.findOne(KnowledgeSource, { id, workspaceId: ctx.caller.workspace.id });
  if (!source) throw sourceNotFound(id);
  return source;
}

export async function findCollection(ctx: ServiceContext, id: string): Promise<KnowledgeCollection | null> {
  if (impossibleId(id)) return null;
  return ctx.em.findOne(KnowledgeCollection, { id, workspaceId: ctx.caller.workspace.id });
}
