/** The keys module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { ApiKey } from './api-key.entity.js';
export { apiKeysByIds, CreateApiKeySchema, keyAuditDetails, revokedAuditDetails, toApiKeyDto, UpdateApiKeySchema } from './keys-admin.service.js';
export { createApiKeyOp, listApiKeysOp, revokeApiKeyOp, updateApiKeyOp } from './operations.js';
export { type ApiKeyDto, ApiKeyDtoSchema, ScopesSchema } from './keys.schemas.js';
export { assertWorkspaceOpen, authenticateSecret, AuthMessages, type IssuedKey, issueKey, revokeKeyAndDescendants, type RememberedKey, revokeKeyById, secretFromHeaders } from './keys.service.js';
export { confirmRememberedKey, createKeysRuntime } from './runtime.js';
