import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import {
  CreateApiKeySchema,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  toApiKeyDto,
  updateApiKey,
  UpdateApiKeySchema,
} from '../../src/modules/keys/index.js';
import { ApiKeyDtoSchema } from '../../src/modules/keys/index.js';
import { mount, param } from '../route.js';



/** `/developer/api-keys`: keys of the caller's user, managed by unrestricted keys (see keys-admin.service). */
export function apiKeysRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'developer', scope: null } as const;
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/developer/api-keys',
    summary: 'Create an API key (the secret is returned once)',
    body: CreateApiKeySchema,
    responses: {
      201: { description: 'Created', schema: z.object({ key: ApiKeyDtoSchema.extend({ secret: z.string() }) }) },
      400: { description: 'Invalid field, or a limit beyond the calling key own' },
      403: { description: 'scope_denied (restricted key) or read_only_key' },
    },
    handler: async (ctx, req) => {
      const { key, secret } = await createApiKey(ctx, req.body);
      return { status: 201, body: { key: toApiKeyDto(key, secret) } };
    },
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/developer/api-keys',
    summary: "List the caller's keys, oldest first, without secrets",
    responses: { 200: { description: 'Keys', schema: z.object({ keys: z.array(ApiKeyDtoSchema) }) } },
    handler: async (ctx) => ({ status: 200, body: { keys: (await listApiKeys(ctx)).map((k) => toApiKeyDto(k)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'patch',
    path: '/developer/api-keys/:id',
    summary: 'Change limits, scopes, expiry or name (null clears a limit or the expiry)',
    body: UpdateApiKeySchema,
    responses: {
      200: { description: 'Updated', schema: z.object({ key: ApiKeyDtoSchema }) },
      400: { description: 'Invalid field, or a raise beyond the calling key own' },
      404: { description: 'Unknown or revoked key' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { key: toApiKeyDto(await updateApiKey(ctx, param(req, 'id'), req.body)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/developer/api-keys/:id',
    summary: 'Revoke a key and every key it created, transitively (effective at their next call)',
    responses: {
      200: {
        description: 'Revoked: the key, and how many of its descendants this revoked',
        schema: z.object({ key: ApiKeyDtoSchema, revokedDescendants: z.number().int() }),
      },
      404: { description: 'Unknown or revoked key' },
    },
    handler: async (ctx, req) => {
      const { key, revokedDescendants } = await revokeApiKey(ctx, param(req, 'id'));
      return { status: 200, body: { key: toApiKeyDto(key), revokedDescendants } };
    },
  });
  return r;
}
