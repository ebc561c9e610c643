import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { CreateDossierSchema, DossierDtoSchema, UpdateDossierSchema } from './dossiers.schemas.js';
import { operationField } from '../../graphql/root-fields.js';
import { createDossierOp, deleteDossierOp, getDossierOp, listDossiersOp, updateDossierOp } from './operations.js';

export const DossierRef = objectFromZod('Dossier', DossierDtoSchema, {
  description: 'A named folder of documents for one matter (a knowledge collection of kind dossier; REST /v1/dossiers).',
});

const CreateDossierInput = inputFromZod('CreateDossierInput', CreateDossierSchema);
const UpdateDossierInput = inputFromZod('UpdateDossierInput', UpdateDossierSchema);

builder.queryFields((t) => ({
  dossiers: t.field({
    type: [DossierRef],
    description: 'Dossiers of the workspace, oldest first.',
    extensions: operationField(listDossiersOp),
    resolve: async (_r, _a, ctx) => listDossiersOp.run(await ctx.service(), {}),
  }),
  dossier: t.field({
    type: DossierRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getDossierOp),
    resolve: async (_r, args, ctx) => getDossierOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  createDossier: t.field({
    type: DossierRef,
    args: { input: t.arg({ type: CreateDossierInput, required: true }) },
    extensions: operationField(createDossierOp),
    resolve: async (_r, args, ctx) => createDossierOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  updateDossier: t.field({
    type: DossierRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateDossierInput, required: true }) },
    extensions: operationField(updateDossierOp),
    resolve: async (_r, args, ctx) => updateDossierOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  deleteDossier: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(deleteDossierOp),
    resolve: async (_r, args, ctx) => deleteDossierOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));
