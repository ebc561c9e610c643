import { builder } from '../../graphql/builder.js';
import { objectFromZod } from '../../graphql/from-zod.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { PosteDtoSchema, PosteRunDtoSchema, PosteTemplateDtoSchema } from './postes.schemas.js';
import { getPosteRun, installPoste, listPosteRuns, listCatalogue, listPostes, runPoste } from './postes.service.js';

/** Postes for the console: installing (a signed-in person), listing and running; the REST routes' services. */
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
    resolve: async (_r, _a, ctx) => listPostes(await ctx.service()),
  }),
  posteCatalogue: t.field({
    type: [PosteTemplateRef],
    description: 'The templates a person may install.',
    resolve: async (_r, _a, ctx) => listCatalogue(await ctx.service()),
  }),
  posteRuns: t.field({
    type: [PosteRunRef],
    description: 'The run history, newest first (GET /v1/postes/runs); optionally of one poste or dossier.',
    args: {
      posteKey: t.arg.string({ required: false }),
      dossierId: t.arg.id({ required: false }),
      limit: t.arg.int({ required: false, description: '1 to 100, default 20' }),
    },
    resolve: async (_r, args, ctx) =>
      listPosteRuns(await ctx.service(), {
        ...(args.posteKey != null ? { posteKey: args.posteKey } : {}),
        ...(args.dossierId != null ? { dossierId: String(args.dossierId) } : {}),
        ...(args.limit != null ? { limit: args.limit } : {}),
      }),
  }),
  posteRun: t.field({
    type: PosteRunRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getPosteRun(await ctx.service(), String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  installPoste: t.field({
    type: PosteRef,
    description: 'Installs a template of the catalogue as a poste (signed-in people only; 409 poste_already_installed the second time).',
    extensions: operationNeeds({ scope: 'agents', write: true, person: true }),
    args: { key: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => installPoste(await ctx.service(), { key: args.key }),
  }),
  runPoste: t.field({
    type: PosteRunRef,
    description: 'Runs a poste on a dossier (POST /v1/postes/:key/run).',
    extensions: operationNeeds({ scope: 'agents', write: true, twin: 'POST /v1/postes/:key/run' }),
    args: { key: t.arg.string({ required: true }), dossierId: t.arg.string({ required: true }), instructions: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => runPoste(await ctx.service(), { key: args.key, dossierId: args.dossierId, instructions: args.instructions ?? undefined }),
  }),
}));
