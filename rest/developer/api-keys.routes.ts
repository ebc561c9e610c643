import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import {
  CreateApiKeySchema,
  createApiKeyOp,
  listApiKeysOp,
  revokeApiKeyOp,
  toApiKeyDto,
  updateApiKeyOp,
  UpdateApiKeySchema,
} from '../../src/modules/keys/index.js';
import { ApiKeyDtoSchema } from '../../src/modules/keys/index.js';
import { mountOperation, param } from '../route.js';

/** `/developer/api-keys`: keys of the caller's user, managed by unrestricted keys (src/modules/keys/operations.ts). */
export function apiKeysRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'developer' } as const;
  mountOperation(r, app, createApiKeyOp, {
    ...base,
    summary: 'Create an API key (the secret is returned once)',
    body: CreateApiKeySchema,
    responses: {
      201: { description: 'Created', schema: z.object({ key: ApiKeyDtoSchema.extend({ secret: z.string() }) }) },
      400: { description: 'Invalid field, or a limit beyond the calling key own' },
      403: { description: 'scope_denied (restricted key) or read_only_key' },
    },
    input: (req) => ({ body: req.body }),
    reply: ({ key, secret }) => ({ status: 201, body: { key: toApiKeyDto(key, secret) } }),
  });
  mountOperation(r, app, listApiKeysOp, {
    ...base,
    summary: "List the caller's keys, oldest first, without secrets",
    responses: { 200: { description: 'Keys', schema: z.object({ keys: z.array(ApiKeyDtoSchema) }) } },
    input: () => ({}),
    reply: (keys) => ({ status: 200, body: { keys } }),
  });
  mountOperation(r, app, updateApiKeyOp, {
    ...base,
    summary: 'Change limits, scopes, expiry or name (null clears a limit or the expiry)',
    body: UpdateApiKeySchema,
    responses: {
      200: { description: 'Updated', schema: z.object({ key: ApiKeyDtoSchema }) },
      400: { description: 'Invalid field, or a raise beyond the calling key own' },
      404: { description: 'Unknown or revoked key' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (key) => ({ status: 200, body: { key } }),
  });
  mountOperation(r, app, revokeApiKeyOp, {
    ...base,
    summary: 'Revoke a key and every key it created, transitively (effective at their next call)',
    responses: {
      200: {
        description: 'Revoked: the key, and how many of its descendants this revoked',
        schema: z.object({ key: ApiKeyDtoSchema, revokedDescendants: z.number().int() }),
      },
      404: { description: 'Unknown or revoked key' },
    },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (revoked) => ({ status: 200, body: revoked }),
  });
  return r;
}
