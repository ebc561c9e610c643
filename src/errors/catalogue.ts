/**
 * The error catalogue: every status and code of SPEC's Errors section.
 * Services throw DomainError; adapters render it in their wire shape (see rest/errors.ts
 * and src/graphql/errors.ts). Clients branch on status then code, so these are a contract.
 */
export const ErrorCode = {
  // dialect codes (gateway)
  invalidRequest: 'invalid_request_error',
  modelNotFound: 'model_not_found',
  notFoundError: 'not_found_error',
  conversationNotFound: 'conversation_not_found',
  proofNotFound: 'proof_not_found',
  insufficientQuota: 'insufficient_quota',
  rateLimitError: 'rate_limit_error',
  serverError: 'server_error',
  apiError: 'api_error',
  addressNotSupported: 'address_not_supported',
  // verifier
  textRequired: 'text_required',
  invalidPassages: 'invalid_passages',
  ambiguousScope: 'ambiguous_scope',
  textTooLarge: 'text_too_large',
  // auth
  scopeDenied: 'scope_denied',
  readOnlyKey: 'read_only_key',
  clientSuspended: 'client_suspended',
  providerUnpaid: 'provider_unpaid',
  // quota
  questionLimit: 'QUESTION_LIMIT',
  subscriptionInactive: 'SUBSCRIPTION_INACTIVE',
  planUpgradeRequired: 'PLAN_UPGRADE_REQUIRED',
  documentLimit: 'DOCUMENT_LIMIT',
  seatLimit: 'SEAT_LIMIT',
  apiKeyBudgetExceeded: 'API_KEY_BUDGET_EXCEEDED',
  // misc
  versionConflict: 'version_conflict',
  rateLimited: 'rate_limited',
  // transport
  serverRestarting: 'server_restarting',
  malformedRequest: 'malformed_request',
  headersTooLarge: 'headers_too_large',
  requestTimeout: 'request_timeout',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export type ErrorDetails = Record<string, unknown>;

export class DomainError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
    readonly details: ErrorDetails = {},
    /** Extra response headers (retry-after). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** By class, or by shape when a second copy of this module is loaded (test runners, bundles). */
export const isDomainError = (e: unknown): e is DomainError =>
  e instanceof DomainError || (e instanceof Error && e.name === 'DomainError' && typeof (e as DomainError).status === 'number');

/** Factories, one per catalogue entry. */
export const errors = {
  badRequest: (message: string, details?: ErrorDetails) => new DomainError(400, message, undefined, details),
  invalidRequest: (message: string, param: string | null = null) =>
    new DomainError(400, message, ErrorCode.invalidRequest, { param }),
  payloadTooLarge: (message: string) => new DomainError(413, message),

  unauthorized: (message: string) => new DomainError(401, message),
  scopeDenied: (scope: string | null) =>
    new DomainError(
      403,
      scope ? `API key lacks the required scope: ${scope}` : 'API key scopes do not grant access to this route',
      ErrorCode.scopeDenied,
      scope ? { scope } : {},
    ),
  readOnlyKey: () => new DomainError(403, 'This API key is read-only', ErrorCode.readOnlyKey),
  clientSuspended: () => new DomainError(403, 'Workspace suspended', ErrorCode.clientSuspended),
  providerUnpaid: () => new DomainError(403, 'Integrator invoice overdue', ErrorCode.providerUnpaid),

  questionLimit: (required: number, available: number) =>
    new DomainError(402, 'Insufficient tokens', ErrorCode.questionLimit, { required, available }),
  insufficientQuota: () =>
    new DomainError(402, 'You exceeded your current quota: no questions left', ErrorCode.insufficientQuota),
  subscriptionInactive: () =>
    new DomainError(402, 'Subscription inactive: the trial is over or the subscription is not active', ErrorCode.subscriptionInactive),
  planUpgradeRequired: (feature: string, requiredPlan: string) =>
    new DomainError(402, `Your plan does not include ${feature}`, ErrorCode.planUpgradeRequired, { feature, requiredPlan }),
  documentLimit: (limit: number, used: number) =>
    new DomainError(402, 'Document limit reached', ErrorCode.documentLimit, { limit, used }),
  seatLimit: (seats: number) => new DomainError(402, 'Subscription covers fewer users', ErrorCode.seatLimit, { seats }),
  apiKeyBudgetExceeded: () =>
    new DomainError(402, 'API key monthly question budget exceeded', ErrorCode.apiKeyBudgetExceeded),

  notFound: (message: string, code?: ErrorCode) => new DomainError(404, message, code),
  modelNotFound: (model: string) => new DomainError(404, `The model '${model}' does not exist`, ErrorCode.modelNotFound, { param: 'model' }),
  conversationNotFound: (id: string) => new DomainError(404, `Conversation not found: ${id}`, ErrorCode.conversationNotFound),
  proofNotFound: (id: string) => new DomainError(404, `Proof not found: ${id}`, ErrorCode.proofNotFound),
  versionConflict: (currentVersion: number) =>
    new DomainError(409, 'Version conflict', ErrorCode.versionConflict, { currentVersion }),

  rateLimited: (retryAfterSeconds: number) =>
    new DomainError(429, 'Rate limit exceeded', ErrorCode.rateLimited, {}, { 'retry-after': String(retryAfterSeconds) }),
  /** Spent question allowance on the Anthropic dialect: 429 `rate_limit_error`, deliberately without retry-after. */
  rateLimitError: (message = 'No questions left in the workspace allowance') => new DomainError(429, message, ErrorCode.rateLimitError),
  /** Route-level ceiling: SPEC says its body is none of the catalogue shapes. */
  routeRateLimited: (route: string, limit: number) =>
    new DomainError(429, 'Too many requests', undefined, { route, limitPerMinute: limit }),

  internal: (message = 'Internal server error') => new DomainError(500, message),
  /** The process is shutting down: ends the streams still open (and answers `/health`); retry on another instance. */
  serverRestarting: () => new DomainError(503, 'The server is restarting; retry the request', ErrorCode.serverRestarting),
  /** Refusals of Node's HTTP parser (src/app/create-app.ts, `clientError`), before any route runs. */
  malformedRequest: (message = 'Malformed HTTP request') => new DomainError(400, message, ErrorCode.malformedRequest),
  headersTooLarge: () => new DomainError(431, 'Request line or headers too large', ErrorCode.headersTooLarge),
  requestTimeout: () => new DomainError(408, 'Request not received in time', ErrorCode.requestTimeout),
  addressNotSupported: (model: string) =>
    new DomainError(501, `Model address not supported: ${model}`, ErrorCode.addressNotSupported, { param: 'model' }),
};
