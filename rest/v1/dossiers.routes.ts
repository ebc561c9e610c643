import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { CreateDossierSchema, DossierDtoSchema, UpdateDossierSchema } from '../../src/modules/knowledge/index.js';
import {
  createDossier,
  deleteDossier,
  getDossier,
  listDossiers,
  toDossierDto,
  toDossierDtos,
  updateDossier,
} from '../../src/modules/knowledge/index.js';
import { mount, param } from '../route.js';

const DossierReply = z.object({ dossier: DossierDtoSchema });

/** Dossiers (docs/light.md): knowledge collections of kind dossier, under the `knowledge` scope. */
export function dossiersRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'knowledge', scope: 'knowledge' } as const;
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/dossiers',
    summary: 'Create a dossier (a named folder of documents for one matter)',
    body: CreateDossierSchema,
    responses: { 201: { description: 'Created', schema: DossierReply }, 400: { description: 'Missing or bad name, clientName or description' } },
    handler: async (ctx, req) => ({ status: 201, body: { dossier: await toDossierDto(ctx, await createDossier(ctx, req.body)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/dossiers',
    summary: 'List the dossiers, oldest first, with their document counts',
    responses: { 200: { description: 'Dossiers', schema: z.object({ dossiers: z.array(DossierDtoSchema) }) } },
    handler: async (ctx) => ({ status: 200, body: { dossiers: await toDossierDtos(ctx, await listDossiers(ctx)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/dossiers/:id',
    summary: 'Read a dossier',
    responses: { 200: { description: 'Dossier', schema: DossierReply }, 404: { description: 'Unknown dossier' } },
    handler: async (ctx, req) => ({ status: 200, body: { dossier: await toDossierDto(ctx, await getDossier(ctx, param(req, 'id'))) } }),
  });
  mount(r, app, {
    ...base,
    method: 'patch',
    path: '/v1/dossiers/:id',
    summary: 'Rename a dossier, change its client name or description (omitted fields keep their value)',
    body: UpdateDossierSchema,
    responses: {
      200: { description: 'Updated', schema: DossierReply },
      400: { description: 'A field of the wrong type or empty name' },
      404: { description: 'Unknown dossier' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { dossier: await toDossierDto(ctx, await updateDossier(ctx, param(req, 'id'), req.body)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/v1/dossiers/:id',
    summary: 'Delete a dossier (its documents are kept, outside any collection)',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown dossier' } },
    handler: async (ctx, req) => {
      await deleteDossier(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });
  return r;
}
