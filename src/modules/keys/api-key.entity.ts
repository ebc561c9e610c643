import { defineEntity, p } from '@mikro-orm/core';

const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    userId: p.string(),
    name: p.text().nullable(),
    /** SHA-256 of the secret; the secret itself is never stored. */
    secretHash: p.string(),
    preview: p.string(),
    scopes: p.json<string[]>(),
    readonly: p.boolean(),
    ratePerMinute: p.integer().nullable(),
    monthlyQuestionLimit: p.integer().nullable(),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    /** The key that created this one through the API; null for keys from the CLI or signed-in people. */
    parentKeyId: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
