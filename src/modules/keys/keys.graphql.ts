import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import {
  keyNotificationsOf,
  listKeyNotifications,
  questionsThisMonthByKey,
  toNotificationDto,
  type KeyNotificationDto,
} from '../usage/usage.service.js';
import { ApiKey } from './api-key.entity.js';
import { createApiKey, listApiKeys, revokeApiKey, toApiKeyDto, updateApiKey } from './keys-admin.service.js';
import { ApiKeyDtoSchema, KeyAttributesSchema, type ApiKeyDto } from './keys.schemas.js';
import { plainInput } from '../../graphql/plain-input.js';

export const KeyNotificationRef = builder.objectRef<KeyNotificationDto>('KeyNotification').implement({
  description: 'Recorded once per key and calendar month when the key passes 80% of its monthlyQuestionLimit.',
  fields: (t) => ({
    id: t.exposeID('id'),
    keyId: t.exposeString('keyId'),
    month: t.exposeString('month'),
    kind: t.exposeString('kind'),
    used: t.exposeInt('used'),
    limit: t.exposeInt('limit'),
    message: t.exposeString('message'),
    createdAt: t.exposeString('createdAt'),
  }),
});

/** The revokeApiKey answer also carries how many descendants the revocation revoked. */
type RevokedApiKey = ApiKeyDto & { revokedDescendants?: number };

/** The same shape as REST (`ApiKeyDtoSchema`), plus what only GraphQL computes. */
export const ApiKeyRef = objectFromZod('ApiKey', ApiKeyDtoSchema, { description: 'An API key of the workspace (never its secret).' });

builder.objectFields(ApiKeyRef, (t) => ({
    revokedDescendants: t.int({
      nullable: true,
      description: 'In the revokeApiKey answer only: keys created by this key, directly or not, that the revocation revoked. Null elsewhere.',
      resolve: (k) => (k as RevokedApiKey).revokedDescendants ?? null,
    }),
    questionsThisMonth: t.loadable({
      type: 'Int',
      description: 'Questions consumed through this key in the current calendar month (UTC), batched across keys.',
      load: async (ids: string[], ctx) => {
        const totals = await questionsThisMonthByKey(await ctx.service(), ids);
        return ids.map((id) => totals.get(id) ?? 0);
      },
      resolve: (k) => k.id,
    }),
    notifications: t.loadableGroup({
      type: KeyNotificationRef,
      description: 'Budget notifications of this key, newest first.',
      load: async (ids: string[], ctx) => (await keyNotificationsOf(await ctx.service(), ids)).map(toNotificationDto),
      group: (n) => n.keyId,
      resolve: (k) => k.id,
    }),
}));

const CreatedApiKeyRef = builder.objectRef<{ key: ApiKey; secret: string }>('CreatedApiKey').implement({
  fields: (t) => ({
    key: t.field({ type: ApiKeyRef, resolve: (c) => toApiKeyDto(c.key) }),
    secret: t.exposeString('secret', { description: 'Shown once, never readable again.' }),
  }),
});

// Derived from the zod schema the service parses with (src/graphql/from-zod.ts); every attribute is
// optional, on a new key as on an update.
const ApiKeyInput = inputFromZod('ApiKeyInput', KeyAttributesSchema);

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKeyRef],
    description: "The caller's API keys, oldest first (same rules as GET /developer/api-keys).",
    resolve: async (_r, _a, ctx) => (await listApiKeys(await ctx.service())).map((k) => toApiKeyDto(k)),
  }),
  keyNotifications: t.field({
    type: [KeyNotificationRef],
    description: 'Key budget notifications of the workspace, newest first, optionally for one month (YYYY-MM).',
    args: { month: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => (await listKeyNotifications(await ctx.service(), { month: args.month })).map(toNotificationDto),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyRef,
    args: { input: t.arg({ type: ApiKeyInput, required: true }) },
    resolve: async (_r, args, ctx) => createApiKey(await ctx.service(), plainInput(args.input)),
  }),
  updateApiKey: t.field({
    type: ApiKeyRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ApiKeyInput, required: true }) },
    resolve: async (_r, args, ctx) => toApiKeyDto(await updateApiKey(await ctx.service(), String(args.id), plainInput(args.input))),
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    args: { id: t.arg.id({ required: true }) },
    description: 'Revokes a key and every key it created, transitively (same rules as DELETE /developer/api-keys/:id).',
    resolve: async (_r, args, ctx) => {
      const { key, revokedDescendants } = await revokeApiKey(await ctx.service(), String(args.id));
      return { ...toApiKeyDto(key), revokedDescendants };
    },
  }),
}));
