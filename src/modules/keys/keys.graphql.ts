import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { ApiKey } from './api-key.entity.js';
import { toApiKeyDto } from './keys-admin.service.js';
import { ApiKeyDtoSchema, KeyAttributesSchema, type ApiKeyDto } from './keys.schemas.js';
import { plainInput } from '../../graphql/plain-input.js';
import { KNOWN_SCOPES, SCOPE_DESCRIPTIONS } from '../../core/scopes.js';
import { operationField } from '../../graphql/root-fields.js';
import { createApiKeyOp, listApiKeysOp, listScopesOp, revokeApiKeyOp, updateApiKeyOp } from './operations.js';

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

/** The scope names a key may hold, each with what it grants (the console lists them from this enum). */
const ApiKeyScopeRef = builder.enumType('ApiKeyScope', {
  description: 'A scope a key may hold. A key with no capability scope is unrestricted.',
  values: Object.fromEntries(KNOWN_SCOPES.map((s) => [s, { value: s, description: SCOPE_DESCRIPTIONS[s] }])),
});

builder.queryFields((t) => ({
  apiKeyScopes: t.field({
    type: [ApiKeyScopeRef],
    description: 'The scope names a key may hold (ApiKey.scopes and ApiKeyInput.scopes take these names).',
    extensions: operationField(listScopesOp),
    resolve: async (_r, _a, ctx) => listScopesOp.run(await ctx.service(), {}),
  }),
  apiKeys: t.field({
    type: [ApiKeyRef],
    description: "The caller's API keys, oldest first (same rules as GET /developer/api-keys).",
    extensions: operationField(listApiKeysOp),
    resolve: async (_r, _a, ctx) => listApiKeysOp.run(await ctx.service(), {}),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyRef,
    args: { input: t.arg({ type: ApiKeyInput, required: true }) },
    extensions: operationField(createApiKeyOp),
    resolve: async (_r, args, ctx) => createApiKeyOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  updateApiKey: t.field({
    type: ApiKeyRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ApiKeyInput, required: true }) },
    extensions: operationField(updateApiKeyOp),
    resolve: async (_r, args, ctx) => updateApiKeyOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    args: { id: t.arg.id({ required: true }) },
    description: 'Revokes a key and every key it created, transitively (same rules as DELETE /developer/api-keys/:id).',
    extensions: operationField(revokeApiKeyOp),
    resolve: async (_r, args, ctx) => {
      const { key, revokedDescendants } = await revokeApiKeyOp.run(await ctx.service(), { id: String(args.id) });
      return { ...key, revokedDescendants };
    },
  }),
}));
