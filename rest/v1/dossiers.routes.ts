import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { CreateDossierSchema, DossierDtoSchema, UpdateDossierSchema } from '../../src/modules/knowledge/index.js';
import { createDossierOp, deleteDossierOp, getDossierOp, listDossiersOp, updateDossierOp } from '../../src/modules/knowledge/index.js';
import { mountOperation, param } from '../route.js';

const DossierReply = z.object({ dossier: DossierDtoSchema });

/** Dossiers (docs/light.md): knowledge collections of kind dossier, under the `knowledge` scope. */
export function dossiersRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'knowledge' } as const;
  mountOperation(r, app, createDossierOp, {
    ...base,
    summary: 'Create a dossier (a named folder of documents for one matter)',
    body: CreateDossierSchema,
    responses: { 201: { description: 'Created', schema: DossierReply }, 400: { description: 'Missing or bad name, clientName or description' } },
    input: (req) => ({ body: req.body }),
    reply: (dossier) => ({ status: 201, body: { dossier } }),
  });
  mountOperation(r, app, listDossiersOp, {
    ...base,
    summary: 'List the dossiers, oldest first, with their document counts',
    responses: { 200: { description: 'Dossiers', schema: z.object({ dossiers: z.array(DossierDtoSchema) }) } },
    input: () => ({}),
    reply: (dossiers) => ({ status: 200, body: { dossiers } }),
  });
  mountOperation(r, app, getDossierOp, {
    ...base,
    summary: 'Read a dossier',
    responses: { 200: { description: 'Dossier', schema: DossierReply }, 404: { description: 'Unknown dossier' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (dossier) => ({ status: 200, body: { dossier } }),
  });
  mountOperation(r, app, updateDossierOp, {
    ...base,
    summary: 'Rename a dossier, change its client name or description (omitted fields keep their value)',
    body: UpdateDossierSchema,
    responses: {
      200: { description: 'Updated', schema: DossierReply },
      400: { description: 'A field of the wrong type or empty name' },
      404: { description: 'Unknown dossier' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (dossier) => ({ status: 200, body: { dossier } }),
  });
  mountOperation(r, app, deleteDossierOp, {
    ...base,
    summary: 'Delete a dossier (its documents are kept, outside any collection)',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown dossier' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  return r;
}
