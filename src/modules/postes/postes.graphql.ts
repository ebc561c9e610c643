import { builder } from '../../graphql/builder.js';
import { objectFromZod } from '../../graphql/from-zod.js';
import { operationField } from '../../graphql/root-fields.js';
import { PosteDtoSchema, PosteRunDtoSchema, PosteTemplateDtoSchema } from './postes.schemas.js';
import { getPosteRunOp, installPosteOp, listCatalogueOp, listPosteRunsOp, listPostesOp, runPosteOp } from './operations.js';

/** Postes for the console: installing (a signed-in person), listing and running; the REST routes' operations. */
const PosteRef = objectFromZod('Poste', PosteDtoSchema, { description: 'An installed poste (GET /v1/postes).' });
const PosteTemplateRef = objectFromZod('PosteTemplate', PosteTemplateDtoSchema, { description: 'A template of the poste catalogue.' });
const PosteRunRef = objectFromZod('PosteRun', PosteRunDtoSchema, {
  description: 'A poste run on a dossier: per control point a finding, its citations, a verdict and the verifier result.',
  names: { items: 'PosteRunItem', status: 'PosteRunStatus' },
});

builder.queryFields((t) => ({
  postes: t.field({
    type: [PosteRef],
    description: 'Installed postes, oldest first (GET /v1/postes).',
    extensions: operationField(listPostesOp),
    resolve: async (_r, _a, ctx) => listPostesOp.run(await ctx.service(), {}),
  }),
  posteCatalogue: t.field({
    type: [PosteTemplateRef],
    description: 'The templates a person may install.',
    extensions: operationField(listCatalogueOp),
    resolve: async (_r, _a, ctx) => listCatalogueOp.run(await ctx.service(), {}),
  }),
  posteRuns: t.field({
    type: [PosteRunRef],
    description: 'The run history, newest first (GET /v1/postes/runs); optionally of one poste or dossier.',
    args: {
      posteKey: t.arg.string({ required: false }),
      dossierId: t.arg.id({ required: false }),
      limit: t.arg.int({ required: false, description: '1 to 100, default 20' }),
    },
    extensions: operationField(listPosteRunsOp),
    resolve: async (_r, args, ctx) =>
      listPosteRunsOp.run(await ctx.service(), {
        query: {
          ...(args.posteKey != null ? { posteKey: args.posteKey } : {}),
          ...(args.dossierId != null ? { dossierId: String(args.dossierId) } : {}),
          ...(args.limit != null ? { limit: args.limit } : {}),
        },
      }),
  }),
  posteRun: t.field({
    type: PosteRunRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getPosteRunOp),
    resolve: async (_r, args, ctx) => getPosteRunOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  installPoste: t.field({
    type: PosteRef,
    description: 'Installs a template of the catalogue as a poste (signed-in people only; 409 poste_already_installed the second time).',
    extensions: operationField(installPosteOp),
    args: { key: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => installPosteOp.run(await ctx.service(), { key: args.key }),
  }),
  runPoste: t.field({
    type: PosteRunRef,
    description: 'Runs a poste on a dossier (POST /v1/postes/:key/run).',
    extensions: operationField(runPosteOp),
    args: { key: t.arg.string({ required: true }), dossierId: t.arg.string({ required: true }), instructions: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) =>
      runPosteOp.run(await ctx.service(), { key: args.key, body: { dossierId: args.dossierId, instructions: args.instructions ?? undefined } }),
  }),
}));
