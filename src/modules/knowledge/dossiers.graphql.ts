import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { CreateDossierSchema, DossierDtoSchema, UpdateDossierSchema } from './dossiers.schemas.js';
import { createDossier, deleteDossier, getDossier, listDossiers, toDossierDto, toDossierDtos, updateDossier } from './dossiers.service.js';

export const DossierRef = objectFromZod('Dossier', DossierDtoSchema, {
  description: 'A named folder of documents for one matter (a knowledge collection of kind dossier; REST /v1/dossiers).',
});

const CreateDossierInput = inputFromZod('CreateDossierInput', CreateDossierSchema);
const UpdateDossierInput = inputFromZod('UpdateDossierInput', UpdateDossierSchema);

builder.queryFields((t) => ({
  dossiers: t.field({
    type: [DossierRef],
    description: 'Dossiers of the workspace, oldest first.',
    resolve: async (_r, _a, ctx) => {
      const service = await ctx.service();
      return toDossierDtos(service, await listDossiers(service));
    },
  }),
  dossier: t.field({
    type: DossierRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const service = await ctx.service();
      return toDossierDto(service, await getDossier(service, String(args.id)));
    },
  }),
}));

builder.mutationFields((t) => ({
  createDossier: t.field({
    type: DossierRef,
    args: { input: t.arg({ type: CreateDossierInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const service = await ctx.service();
      return toDossierDto(service, await createDossier(service, plainInput(args.input)));
    },
  }),
  updateDossier: t.field({
    type: DossierRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateDossierInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const service = await ctx.service();
      return toDossierDto(service, await updateDossier(service, String(args.id), plainInput(args.input)));
    },
  }),
  deleteDossier: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteDossier(await ctx.service(), String(args.id));
      return true;
    },
  }),
}));
