/**
 * The error catalogue: every error a client can see, one code each. The code is an internal identity:
 * services throw DomainError and never know which wire will carry it; the renderers of
 * src/errors/render.ts decide what a body shows (native, OpenAI, Anthropic, GraphQL, the SSE events).
 * Where SPEC gives an error no code ("none": validation 400s, 401, 404s, 413s, the route-level 429, 500s),
 * the native body still shows none. Clients branch on status then wire code, so the renderings are a contract.
 */
export const ErrorCode = {
  // 400
  /** A field of the input is missing or wrong (`details.field` names it when there is one). */
  validationFailed: 'validation_failed',
  /** The body cannot be read at all: malformed JSON or multipart, unsupported encoding, not an object. */
  invalidBody: 'invalid_body',
  /** A value that must be unique is already taken (a database unique constraint). */
  alreadyExists: 'already_exists',
  /** An outbound URL (webhook, tool template) the deployment may not call; `details.field` names it. */
  urlRefused: 'url_refused',
  /** An action reserved to paid plans (question packs). */
  paidPlanRequired: 'paid_plan_required',
  textRequired: 'text_required',
  invalidPassages: 'invalid_passages',
  ambiguousScope: 'ambiguous_scope',
  /** Refusals of Node's HTTP parser (src/app/create-app.ts, `clientError`), before any route runs. */
  malformedRequest: 'malformed_request',
  // 401, 403
  unauthorized: 'unauthorized',
  scopeDenied: 'scope_denied',
  readOnlyKey: 'read_only_key',
  clientSuspended: 'client_suspended',
  providerUnpaid: 'provider_unpaid',
  /** An operation only signed-in people may perform, called with an API key (docs/people.md). */
  personRequired: 'person_required',
  /** A write authenticated by the session cookie from another origin (docs/people.md, CSRF). */
  csrfRejected: 'csrf_rejected',
  /** A signed-in member asked for what only the workspace's admins may do (docs/people.md, role matrix). */
  adminRequired: 'admin_required',
  /** An invitation or password-reset link that is unknown, already used or expired. */
  linkInvalid: 'link_invalid',
  // 402
  questionLimit: 'QUESTION_LIMIT',
  subscriptionInactive: 'SUBSCRIPTION_INACTIVE',
  planUpgradeRequired: 'PLAN_UPGRADE_REQUIRED',
  documentLimit: 'DOCUMENT_LIMIT',
  seatLimit: 'SEAT_LIMIT',
  apiKeyBudgetExceeded: 'API_KEY_BUDGET_EXCEEDED',
  // 404, 408, 409
  /** An object absent from the workspace; the kind is in `DomainError.resource`. */
  notFound: 'not_found',
  modelNotFound: 'model_not_found',
  conversationNotFound: 'conversation_not_found',
  proofNotFound: 'proof_not_found',
  requestTimeout: 'request_timeout',
  versionConflict: 'version_conflict',
  // 413, 415, 422, 431
  payloadTooLarge: 'payload_too_large',
  textTooLarge: 'text_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  unsupportedDocument: 'unsupported_document',
  documentUnreadable: 'document_unreadable',
  headersTooLarge: 'headers_too_large',
  // 429
  rateLimited: 'rate_limited',
  /** Route-level ceiling: SPEC gives it a body of its own. */
  routeRateLimited: 'route_rate_limited',
  // 499, 5xx
  /** The client went away (or the caller aborted): nobody is left to read an answer. */
  turnAborted: 'turn_aborted',
  internal: 'internal_error',
  addressNotSupported: 'address_not_supported',
  /** The process is shutting down: ends the streams still open (and answers `/health`); retry elsewhere. */
  serverRestarting: 'server_restarting',
  // Embeddable widgets (docs/widgets.md)
  /** An agent widget's agent reads no chosen documents or dossiers (its `collectionScope` is empty). */
  widgetAgentUnscoped: 'widget_agent_unscoped',
  /** A widget's public endpoint called from an origin the widget does not allow, or with no Origin. */
  originNotAllowed: 'origin_not_allowed',
  /** The widget answered its monthly ceiling of questions. */
  widgetMonthlyLimit: 'WIDGET_MONTHLY_LIMIT',
  // Flows (issue 15, docs/flows.md "Errors")
  /** A flow graph with problems (`details.problems`, as `POST /engine/flows/validate` reports them). */
  invalidGraph: 'invalid_graph',
  /** The approval was already decided, timed out or cancelled. */
  approvalClosed: 'approval_closed',
  /** Another person claimed the approval. */
  approvalClaimed: 'approval_claimed',
  /** Resume of a run that is neither failed nor waiting. */
  runNotResumable: 'run_not_resumable',
  /** Cancel of a run that is already over. */
  runFinished: 'run_finished',
  /** An inbound flow webhook without a valid signature. */
  invalidSignature: 'invalid_signature',
  /** An inbound trigger of a disabled flow. */
  flowDisabled: 'flow_disabled',
  /** An inbound flow webhook whose `webhook-id` was already accepted (a replay). */
  webhookReplayed: 'webhook_replayed',
  // MCP endpoint (README, "MCP")
  /**
   * GET or DELETE on the stateless MCP endpoint, which takes POST only (no server stream, no session);
   * a GraphQL mutation or subscription sent over GET (GET is for queries).
   */
  methodNotAllowed: 'method_not_allowed',
  // Partner (integrator) program (docs/partner.md, error codes)
  /** A `/partner/*` operation called from a workspace that is not an integrator. */
  partnerRequired: 'partner_required',
  /** Paying an invoice that is paid or void. */
  invoiceNotPayable: 'invoice_not_payable',
  /** No payment provider configured (SVC_STRIPE_SECRET_KEY unset). */
  paymentsNotConfigured: 'payments_not_configured',
  /** The payment provider could not be reached or refused the request. */
  paymentProviderError: 'payment_provider_error',
  /** A provider webhook whose signature does not verify. */
  webhookSignatureInvalid: 'webhook_signature_invalid',
  /** Device pairing: the code is not confirmed yet (poll again). */
  authorizationPending: 'authorization_pending',
  /** Device pairing: the code is unknown, used or expired. */
  deviceCodeInvalid: 'device_code_invalid',
  // Issue 16: light, postes.
  /** `provider` of a light question is not auto, local or a configured provider. */
  invalidProvider: 'invalid_provider',
  /** A poste already installed under this key in the workspace. */
  posteAlreadyInstalled: 'poste_already_installed',
  /** A key that names no template of the poste catalogue. */
  unknownPosteTemplate: 'unknown_poste_template',
  /** A poste run on a dossier with no ready document. */
  dossierEmpty: 'dossier_empty',
  /** `POST /light/web` on a server without `SVC_WEB_SEARCH_URL`. */
  webSearchNotConfigured: 'web_search_not_configured',
  /** The configured web search did not answer usable results. */
  webSearchFailed: 'web_search_failed',
  // Conversations (issue 14, docs/debates.md)
  /** A follow-up to a conversation whose debate (or previous follow-up) is still running. */
  conversationBusy: 'conversation_busy',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The GraphQL layer's refusals of a document (`extensions.code`, status 400), made before any resolver
 * runs (docs/operations.md, "Limits on GraphQL"): GraphQL's own parse and validation, GraphQL Armor's
 * limits, a JSON value nested too deep, a field with a ceiling repeated. No service throws them; the
 * GraphQL renderer `graphqlRefusal` (render.ts) builds them.
 */
export const GraphQLRefusalCode = {
  parseFailed: 'graphql_parse_failed',
  validationFailed: 'graphql_validation_failed',
  tooManyTokens: 'graphql_too_many_tokens',
  tooManyAliases: 'graphql_too_many_aliases',
  tooDeep: 'graphql_too_deep',
  tooManyDirectives: 'graphql_too_many_directives',
  tooCostly: 'graphql_too_costly',
  /** A `JSON` scalar value nested deeper than MAX_JSON_DEPTH. */
  jsonTooDeep: 'json_too_deep',
  /** A root field with a request ceiling aliased more than once in one operation. */
  limitedFieldRepeated: 'limited_field_repeated',
} as const;
export type GraphQLRefusalCode = (typeof GraphQLRefusalCode)[keyof typeof GraphQLRefusalCode];

/**
 * Why a flow step, and with it its run, failed where no catalogue error says it (the run's and the step's
 * `errorCode`, docs/flows.md). A step that a service refused fails with that error's `ErrorCode`.
 */
export const FlowFailureCode = {
  /** The flow's creator (whose rights the steps use) no longer exists. */
  creatorMissing: 'creator_missing',
  mailFailed: 'mail_failed',
  unknownNodeType: 'unknown_node_type',
  /** An HTTP step's request was answered with a status outside 2xx. */
  httpStatus: 'http_status',
  /** An HTTP step's request could not be made. */
  httpFailed: 'http_failed',
  /** An outbound step whose attempt was interrupted: whether it reached the other side is unknown. */
  outboundOutcomeUnknown: 'outbound_outcome_unknown',
  approvalTimedOut: 'approval_timed_out',
  /** A person rejected an approval that has no `rejected` edge to go on by. */
  approvalRejected: 'approval_rejected',
  /** The run was cancelled (its open steps fail with it). */
  cancelled: 'cancelled',
} as const;
export type FlowFailureCode = (typeof FlowFailureCode)[keyof typeof FlowFailureCode];
/** A failed step's code: its own failure, or the catalogue error of the service that refused it. */
export type FlowStepCode = FlowFailureCode | ErrorCode;

/** Problems of a flow graph: `details.problems[].code` of `invalid_graph` and of `POST /engine/flows/validate`. */
export const GraphProblemCode = {
  duplicateKey: 'duplicate_key',
  unknownNodeType: 'unknown_node_type',
  invalidConfig: 'invalid_config',
  badCron: 'bad_cron',
  noTrigger: 'no_trigger',
  severalSchedules: 'several_schedules',
  danglingEdge: 'dangling_edge',
  edgeIntoTrigger: 'edge_into_trigger',
  badEdgeCondition: 'bad_edge_condition',
  cycle: 'cycle',
  outboundWithoutApproval: 'outbound_without_approval',
  /** An agent or collection the graph names that the workspace does not have. */
  unknownConnection: 'unknown_connection',
  /** A portable flow document of another format. */
  unknownFormat: 'unknown_format',
  invalidDocument: 'invalid_document',
} as const;
export type GraphProblemCode = (typeof GraphProblemCode)[keyof typeof GraphProblemCode];

/** A flow graph problem as the catalogue words it. */
export interface GraphProblem {
  code: GraphProblemCode;
  message: string;
  nodeKey?: string;
}

/** Every code a client can see, whatever carries it: errors, GraphQL refusals, flow failures, graph problems. */
export type CatalogueCode = ErrorCode | GraphQLRefusalCode | FlowStepCode | GraphProblemCode;

export type ErrorDetails = Record<string, unknown>;

/** Kinds of object a 404 `not_found` is about, with the label its message uses. */
export const RESOURCES = {
  agent: 'Agent',
  session: 'Session',
  tool: 'Tool',
  toolLink: 'Tool link',
  knowledgeSource: 'Knowledge source',
  collection: 'Collection',
  knowledgeLink: 'Knowledge link',
  webhook: 'Webhook',
  delivery: 'Delivery',
  apiKey: 'API key',
  workspace: 'Workspace',
  user: 'User',
  route: 'Route',
  record: 'Record',
  verifyReport: 'Verifier report',
  widget: 'Widget',
  flow: 'Flow',
  flowRun: 'Run',
  approval: 'Approval',
  client: 'Client',
  invoice: 'Invoice',
  device: 'Device',
  // Issue 16: dossiers, postes and their runs.
  dossier: 'Dossier',
  poste: 'Poste',
  posteRun: 'Poste run',
} as const;
export type Resource = keyof typeof RESOURCES;

export interface DomainErrorOptions {
  /** Shown on the wire beside the message, where the shape has room for it (native body, GraphQL extensions). */
  details?: ErrorDetails;
  /** Extra response headers (retry-after). */
  headers?: Record<string, string>;
  /** The kind of object of a `not_found` (never in a REST body; GraphQL shows it). */
  resource?: Resource;
}

export class DomainError extends Error {
  readonly details: ErrorDetails;
  readonly headers: Record<string, string>;
  readonly resource: Resource | undefined;

  constructor(
    readonly status: number,
    message: string,
    readonly code: ErrorCode,
    options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
    this.resource = options.resource;
  }
}

/** By class, or by shape when a second copy of this module is loaded (test runners, bundles). */
export const isDomainError = (e: unknown): e is DomainError =>
  e instanceof DomainError || (e instanceof Error && e.name === 'DomainError' && typeof (e as DomainError).status === 'number');

const make = (status: number, code: ErrorCode, message: string, details?: ErrorDetails, headers?: Record<string, string>) =>
  new DomainError(status, message, code, { details, headers });

/** Factories, one per catalogue entry (test/errors/catalogue.test.ts renders every one in every shape). */
export const errors = {
  /**
   * A field of the input is missing or wrong; `field` (null when the problem is not one field's) goes
   * beside the message, and becomes `param` on the OpenAI dialect.
   */
  validation: (field: string | null, message: string, details?: ErrorDetails) =>
    make(400, ErrorCode.validationFailed, message, field ? { field, ...details } : details),
  invalidBody: (message: string, field?: string) => make(400, ErrorCode.invalidBody, message, field ? { field } : undefined),
  alreadyExists: (message = 'A record with the same unique value already exists') => make(400, ErrorCode.alreadyExists, message),
  /** `message` words the refusal for the field; `details` may add the reason. */
  urlRefused: (field: string, message: string, details?: ErrorDetails) => make(400, ErrorCode.urlRefused, message, { field, ...details }),
  paidPlanRequired: (message: string) => make(400, ErrorCode.paidPlanRequired, message),
  textRequired: () => make(400, ErrorCode.textRequired, 'text is required'),
  invalidPassages: (message = 'Each passage needs a source and a content') => make(400, ErrorCode.invalidPassages, message),
  ambiguousScope: () => make(400, ErrorCode.ambiguousScope, 'Send either passages or collectionIds, not both'),
  malformedRequest: (message = 'Malformed HTTP request') => make(400, ErrorCode.malformedRequest, message),

  unauthorized: (message: string) => make(401, ErrorCode.unauthorized, message),
  scopeDenied: (scope: string | null) =>
    make(
      403,
      ErrorCode.scopeDenied,
      scope ? `API key lacks the required scope: ${scope}` : 'API key scopes do not grant access to this route',
      scope ? { scope } : {},
    ),
  readOnlyKey: () => make(403, ErrorCode.readOnlyKey, 'This API key is read-only'),
  clientSuspended: () => make(403, ErrorCode.clientSuspended, 'Workspace suspended'),
  providerUnpaid: () => make(403, ErrorCode.providerUnpaid, 'Integrator invoice overdue'),
  personRequired: () => make(403, ErrorCode.personRequired, 'Only a signed-in person may do this; API keys are refused'),
  csrfRejected: () => make(403, ErrorCode.csrfRejected, "Cross-site request refused: the Origin is not the service's own"),
  adminRequired: () => make(403, ErrorCode.adminRequired, "Only the workspace's admins may do this"),
  linkInvalid: () => make(400, ErrorCode.linkInvalid, 'This link is invalid, already used or expired'),

  /** Fewer questions left than needed; the dialect renderers turn it into their quota error. */
  questionLimit: (required: number, available: number) =>
    make(402, ErrorCode.questionLimit, 'Insufficient tokens', { required, available }),
  subscriptionInactive: () =>
    make(402, ErrorCode.subscriptionInactive, 'Subscription inactive: the trial is over or the subscription is not active'),
  planUpgradeRequired: (feature: string, requiredPlan: string) =>
    make(402, ErrorCode.planUpgradeRequired, `Your plan does not include ${feature}`, { feature, requiredPlan }),
  documentLimit: (limit: number, used: number) => make(402, ErrorCode.documentLimit, 'Document limit reached', { limit, used }),
  seatLimit: (seats: number) => make(402, ErrorCode.seatLimit, 'Subscription covers fewer users', { seats }),
  apiKeyBudgetExceeded: () => make(402, ErrorCode.apiKeyBudgetExceeded, 'API key monthly question budget exceeded'),

  /** `<Label> not found: <id>` (or `<Label> not found`), unless `message` words it otherwise. */
  notFound: (resource: Resource, id?: string | null, message?: string) =>
    new DomainError(404, message ?? (id ? `${RESOURCES[resource]} not found: ${id}` : `${RESOURCES[resource]} not found`), ErrorCode.notFound, {
      resource,
    }),
  modelNotFound: (model: string) => make(404, ErrorCode.modelNotFound, `The model '${model}' does not exist`, { param: 'model' }),
  conversationNotFound: (id: string) => make(404, ErrorCode.conversationNotFound, `Conversation not found: ${id}`),
  proofNotFound: (id: string) => make(404, ErrorCode.proofNotFound, `Proof not found: ${id}`),
  requestTimeout: () => make(408, ErrorCode.requestTimeout, 'Request not received in time'),
  versionConflict: (currentVersion: number) => make(409, ErrorCode.versionConflict, 'Version conflict', { currentVersion }),

  payloadTooLarge: (message = 'Request body too large') => make(413, ErrorCode.payloadTooLarge, message),
  textTooLarge: (max: number) => make(413, ErrorCode.textTooLarge, `text is too large: at most ${max} characters`, { max }),
  unsupportedMediaType: (message: string) => make(415, ErrorCode.unsupportedMediaType, message),
  /** A kind of file ingestion does not read (image, archive, spreadsheet, unknown binary). */
  unsupportedDocument: (message: string) => make(415, ErrorCode.unsupportedDocument, message),
  /** The file claims a supported format but cannot be read as one (empty, corrupt, encrypted, no text). */
  documentUnreadable: (message: string) => make(422, ErrorCode.documentUnreadable, message),
  headersTooLarge: () => make(431, ErrorCode.headersTooLarge, 'Request line or headers too large'),

  rateLimited: (retryAfterSeconds: number) =>
    make(429, ErrorCode.rateLimited, 'Rate limit exceeded', {}, { 'retry-after': String(retryAfterSeconds) }),
  /** Route-level ceiling: SPEC says its body is none of the catalogue shapes; retry-after is a courtesy. */
  routeRateLimited: (route: string, limit: number, retryAfterSeconds?: number) =>
    make(
      429,
      ErrorCode.routeRateLimited,
      'Too many requests',
      { route, limitPerMinute: limit },
      retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
    ),

  turnAborted: () => make(499, ErrorCode.turnAborted, 'Chat turn aborted'),
  /** A failure inside the service or at the model provider; `message` never carries internals. */
  internal: (message = 'Internal server error') => make(500, ErrorCode.internal, message),
  addressNotSupported: (model: string) =>
    make(501, ErrorCode.addressNotSupported, `Model address not supported: ${model}`, { param: 'model' }),
  serverRestarting: () => make(503, ErrorCode.serverRestarting, 'The server is restarting; retry the request'),

  // Embeddable widgets (docs/widgets.md)
  widgetAgentUnscoped: (agentId: string) =>
    make(
      400,
      ErrorCode.widgetAgentUnscoped,
      `An agent widget needs an agent limited to chosen documents or dossiers: link sources or collections to agent ${agentId} first`,
      { field: 'agentId', agentId },
    ),
  originNotAllowed: (origin: string | null) =>
    make(
      403,
      ErrorCode.originNotAllowed,
      origin ? `This widget is not allowed on ${origin}` : 'This widget answers only pages of its allowed origins (no Origin header was sent)',
      { origin },
    ),
  widgetMonthlyLimit: (limit: number) =>
    make(402, ErrorCode.widgetMonthlyLimit, 'This assistant has answered all the questions it can this month; please come back next month', { limit }),
  // Flows
  invalidGraph: (problems: GraphProblem[]) =>
    make(400, ErrorCode.invalidGraph, `The flow graph is not valid: ${problems.map((p) => p.message).join('; ')}`, { problems }),
  approvalClosed: (status: string) => make(409, ErrorCode.approvalClosed, `The approval is already ${status.replace('_', ' ')}`, { status }),
  approvalClaimed: () => make(409, ErrorCode.approvalClaimed, 'Another person has claimed this approval'),
  runNotResumable: (status: string) => make(409, ErrorCode.runNotResumable, `A ${status} run cannot be resumed`, { status }),
  runFinished: (status: string) => make(409, ErrorCode.runFinished, `The run is already ${status}`, { status }),
  invalidSignature: (message = 'Missing or invalid webhook signature: send webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks)') =>
    make(401, ErrorCode.invalidSignature, message),
  webhookReplayed: (runId: string) =>
    make(409, ErrorCode.webhookReplayed, 'This webhook-id was already accepted: the delivery started a run once', { runId }),
  flowDisabled: () => make(409, ErrorCode.flowDisabled, 'The flow is disabled: its schedule and inbound triggers do not start runs'),

  // MCP endpoint
  methodNotAllowed: (allowed: string, message = `Method not allowed: this endpoint accepts ${allowed} only`) =>
    make(405, ErrorCode.methodNotAllowed, message, {}, { allow: allowed }),
  // Partner (integrator) program
  partnerRequired: () => make(403, ErrorCode.partnerRequired, 'This workspace is not an integrator (partner program)'),
  invoiceNotPayable: (status: string) => make(409, ErrorCode.invoiceNotPayable, `Invoice is ${status}: nothing to pay`, { invoiceStatus: status }),
  paymentsNotConfigured: () => make(503, ErrorCode.paymentsNotConfigured, 'Payments are not configured on this server'),
  paymentProviderError: () => make(502, ErrorCode.paymentProviderError, 'The payment provider failed; retry later'),
  webhookSignatureInvalid: () => make(400, ErrorCode.webhookSignatureInvalid, 'Webhook signature does not verify'),
  authorizationPending: () => make(400, ErrorCode.authorizationPending, 'The pairing code is not confirmed yet'),
  deviceCodeInvalid: () => make(400, ErrorCode.deviceCodeInvalid, 'Unknown, used or expired pairing code'),
  // Issue 16: light, postes.
  invalidProvider: (provider: string, allowed: string[]) =>
    make(400, ErrorCode.invalidProvider, `Unknown provider: ${provider} (allowed: ${allowed.join(', ')})`, { field: 'provider', allowed }),
  posteAlreadyInstalled: (key: string, agentId: string) =>
    make(409, ErrorCode.posteAlreadyInstalled, `Poste already installed: ${key}`, { key, agentId }),
  unknownPosteTemplate: (key: string, keys: string[]) =>
    make(400, ErrorCode.unknownPosteTemplate, `Unknown poste template: ${key} (catalogue: ${keys.join(', ')})`, { field: 'key', keys }),
  dossierEmpty: (dossierId: string) =>
    make(400, ErrorCode.dossierEmpty, 'The dossier has no ready document to run on', { field: 'dossierId', dossierId }),
  webSearchNotConfigured: () =>
    make(501, ErrorCode.webSearchNotConfigured, 'Web search is not configured on this server (SVC_WEB_SEARCH_URL)'),
  webSearchFailed: () => make(502, ErrorCode.webSearchFailed, 'The web search did not answer'),
  // Conversations (issue 14)
  conversationBusy: (id: string) =>
    make(409, ErrorCode.conversationBusy, `Conversation ${id} is still debating: retry once its round has ended`, { conversationId: id }),
};

export type ErrorFactory = keyof typeof errors;
