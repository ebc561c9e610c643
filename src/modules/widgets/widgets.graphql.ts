import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationField } from '../../graphql/root-fields.js';
import { CreateWidgetSchema, UpdateWidgetSchema, WidgetDtoSchema } from './widgets.schemas.js';
import { createWidgetOp, deleteWidgetOp, getWidgetOp, listWidgetsOp, updateWidgetOp } from './operations.js';

const WidgetRef = objectFromZod('Widget', WidgetDtoSchema, {
  description: 'An embeddable widget of the workspace (same fields as the REST resource of /engine/widgets).',
  names: { family: 'WidgetFamily' },
});

const CreateWidgetInput = inputFromZod('CreateWidgetInput', CreateWidgetSchema, { names: { family: 'WidgetFamily' } });
const UpdateWidgetInput = inputFromZod('UpdateWidgetInput', UpdateWidgetSchema, { names: { family: 'WidgetFamily' } });

builder.queryFields((t) => ({
  widgets: t.field({
    type: [WidgetRef],
    description: 'Embeddable widgets of the workspace, oldest first (GET /engine/widgets).',
    extensions: operationField(listWidgetsOp),
    resolve: async (_r, _a, ctx) => listWidgetsOp.run(await ctx.service(), {}),
  }),
  widget: t.field({
    type: WidgetRef,
    extensions: operationField(getWidgetOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getWidgetOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  createWidget: t.field({
    type: WidgetRef,
    description: 'An agent widget needs an agent limited to chosen documents or dossiers (widget_agent_unscoped otherwise).',
    extensions: operationField(createWidgetOp),
    args: { input: t.arg({ type: CreateWidgetInput, required: true }) },
    resolve: async (_r, args, ctx) => createWidgetOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  updateWidget: t.field({
    type: WidgetRef,
    extensions: operationField(updateWidgetOp),
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWidgetInput, required: true }) },
    resolve: async (_r, args, ctx) => updateWidgetOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  deleteWidget: t.boolean({
    extensions: operationField(deleteWidgetOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => deleteWidgetOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));
