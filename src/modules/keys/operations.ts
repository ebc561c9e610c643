import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { KNOWN_SCOPES } from '../../core/scopes.js';
import { createApiKey, listApiKeys, revokeApiKey, toApiKeyDto, updateApiKey } from './keys-admin.service.js';

// The keys family's use cases (issue 29 §1): rest/developer/api-keys.routes.ts and keys.graphql.ts refer to
// these. Keys are managed by keys without capability scopes (a restricted key gets 403 scope_denied) and by
// signed-in people; read-only keys may list, not change. A key manages its own user's keys; whatever the
// policy, no key creates or raises a key beyond its own rights (keys-admin.service.ts, assertWithinRights).
const MANAGE_READ = { scope: null } as const;
const MANAGE_WRITE = { scope: null, write: true } as const;
const ById = z.object({ id: z.string() });

export const listApiKeysOp = defineOperation({
  name: 'keys.list',
  route: 'GET /developer/api-keys',
  needs: MANAGE_READ,
  input: z.object({}),
  run: async (ctx) => (await listApiKeys(ctx)).map((k) => toApiKeyDto(k)),
});

/** The new key with its secret, shown this once. */
export const createApiKeyOp = defineOperation({
  name: 'keys.create',
  route: 'POST /developer/api-keys',
  needs: MANAGE_WRITE,
  input: z.object({ body: z.unknown() }),
  run: (ctx, { body }) => createApiKey(ctx, body),
});

export const updateApiKeyOp = defineOperation({
  name: 'keys.update',
  route: 'PATCH /developer/api-keys/:id',
  needs: MANAGE_WRITE,
  input: ById.extend({ body: z.unknown() }),
  run: async (ctx, { id, body }) => toApiKeyDto(await updateApiKey(ctx, id, body)),
});

/** Revokes the key and, transitively, every key it created: the key and how many descendants went with it. */
export const revokeApiKeyOp = defineOperation({
  name: 'keys.revoke',
  route: 'DELETE /developer/api-keys/:id',
  needs: MANAGE_WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    const { key, revokedDescendants } = await revokeApiKey(ctx, id);
    return { key: toApiKeyDto(key), revokedDescendants };
  },
});

/** The scope names a key may hold (GraphQL `apiKeyScopes`): what the console offers when creating a key. */
export const listScopesOp = defineOperation({
  name: 'keys.scopes',
  needs: { scope: null },
  input: z.object({}),
  run: async () => [...KNOWN_SCOPES],
});
