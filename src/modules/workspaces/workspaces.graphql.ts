import { builder } from '../../graphql/builder.js';
import { operationField } from '../../graphql/root-fields.js';
import { viewerOp } from './operations.js';
import type { Caller, KeyCaller } from '../../core/principal.js';
import { seatsUsed } from './workspaces.service.js';

const ViewerWorkspace = builder.objectRef<Caller['workspace']>('ViewerWorkspace').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    plan: t.exposeString('plan'),
    seats: t.exposeInt('seats'),
    seatsUsed: t.int({
      description: 'Seats taken: every user of the workspace (people invited, active or disabled, and users only API keys act for).',
      resolve: async (_w, _a, ctx) => seatsUsed(await ctx.service()),
    }),
    suspended: t.exposeBoolean('suspended'),
    createdAt: t.string({ resolve: (w) => w.createdAt.toISOString() }),
  }),
});

const ViewerKey = builder.objectRef<KeyCaller['key']>('ViewerKey').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    preview: t.exposeString('preview'),
    scopes: t.exposeStringList('scopes'),
    readonly: t.exposeBoolean('readonly'),
    ratePerMinute: t.exposeInt('ratePerMinute', { nullable: true }),
    monthlyQuestionLimit: t.exposeInt('monthlyQuestionLimit', { nullable: true }),
    expiresAt: t.string({ nullable: true, resolve: (k) => k.expiresAt?.toISOString() ?? null }),
  }),
});

const ViewerPerson = builder.objectRef<Caller['user']>('ViewerPerson').implement({
  description: 'The signed-in person (session cookie).',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.string({ resolve: (u) => u.email ?? '' }),
    name: t.string({ nullable: true, resolve: (u) => u.name ?? null }),
    role: t.string({ resolve: (u) => u.role }),
  }),
});

const Viewer = builder.objectRef<Caller>('Viewer').implement({
  fields: (t) => ({
    workspace: t.field({ type: ViewerWorkspace, resolve: (c) => c.workspace }),
    userId: t.id({ resolve: (c) => c.user.id }),
    key: t.field({ type: ViewerKey, nullable: true, description: 'The calling API key; null for a signed-in person.', resolve: (c) => (c.kind === 'key' ? c.key : null) }),
    person: t.field({ type: ViewerPerson, nullable: true, description: 'The signed-in person; null for an API key.', resolve: (c) => (c.kind === 'person' ? c.user : null) }),
    restricted: t.exposeBoolean('restricted'),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: Viewer,
    description: 'The workspace, user and key behind the calling API key, or the signed-in person.',
    extensions: operationField(viewerOp),
    resolve: async (_root, _args, ctx) => viewerOp.run(await ctx.service(), {}),
  }),
);
