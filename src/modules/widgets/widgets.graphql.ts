import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { CreateWidgetSchema, UpdateWidgetSchema, WidgetDtoSchema } from './widgets.schemas.js';
import { createWidget, deleteWidget, getWidget, listWidgets, updateWidget } from './widgets.service.js';

const WidgetRef = objectFromZod('Widget', WidgetDtoSchema, {
  description: 'An embeddable widget of the workspace (same fields as the REST resource of /engine/widgets).',
  names: { family: 'WidgetFamily' },
});

const CreateWidgetInput = inputFromZod('CreateWidgetInput', CreateWidgetSchema, { names: { family: 'WidgetFamily' } });
const UpdateWidgetInput = inputFromZod('UpdateWidgetInput', UpdateWidgetSchema, { names: { family: 'WidgetFamily' } });

const READ = { scope: 'engine' } as const;
const WRITE = { scope: 'engine', write: true } as const;

builder.queryFields((t) => ({
  widgets: t.field({
    type: [WidgetRef],
    description: 'Embeddable widgets of the workspace, oldest first (GET /engine/widgets).',
    extensions: operationNeeds({ ...READ, twin: 'GET /engine/widgets' }),
    resolve: async (_r, _a, ctx) => listWidgets(await ctx.service()),
  }),
  widget: t.field({
    type: WidgetRef,
    extensions: operationNeeds({ ...READ, twin: 'GET /engine/widgets/:id' }),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getWidget(await ctx.service(), String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  createWidget: t.field({
    type: WidgetRef,
    description: 'An agent widget needs an agent limited to chosen documents or dossiers (widget_agent_unscoped otherwise).',
    extensions: operationNeeds({ ...WRITE, twin: 'POST /engine/widgets' }),
    args: { input: t.arg({ type: CreateWidgetInput, required: true }) },
    resolve: async (_r, args, ctx) => createWidget(await ctx.service(), plainInput(args.input)),
  }),
  updateWidget: t.field({
    type: WidgetRef,
    extensions: operationNeeds({ ...WRITE, twin: 'PATCH /engine/widgets/:id' }),
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWidgetInput, required: true }) },
    resolve: async (_r, args, ctx) => updateWidget(await ctx.service(), String(args.id), plainInput(args.input)),
  }),
  deleteWidget: t.boolean({
    extensions: operationNeeds({ ...WRITE, twin: 'DELETE /engine/widgets/:id' }),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteWidget(await ctx.service(), String(args.id));
      return true;
    },
  }),
}));
