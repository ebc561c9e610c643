import { GraphQLError, type ASTNode } from 'graphql';
import { ErrorCode, type DomainError, type GraphQLRefusalCode } from './catalogue.js';

/**
 * The renderers: the only place where an error's wire shape is chosen (SPEC, Errors). One function per
 * shape: the native body, the OpenAI and Anthropic dialects, GraphQL, and the in-stream error events of
 * the three SSE forms. A catalogue code is an internal identity; each renderer decides what of it goes
 * on its wire.
 */

/** `jsonrpc`: the MCP endpoint's JSON-RPC 2.0 error object (its body errors and failures; tool refusals are tool errors). */
export type Dialect = 'native' | 'openai' | 'anthropic' | 'jsonrpc';

export interface Rendered {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Codes SPEC gives no wire code ("none"): the native body and the chat stream's error event omit them. */
const UNCODED = new Set<ErrorCode>([
  ErrorCode.validationFailed,
  ErrorCode.invalidBody,
  ErrorCode.alreadyExists,
  ErrorCode.urlRefused,
  ErrorCode.paidPlanRequired,
  ErrorCode.unauthorized,
  ErrorCode.notFound,
  ErrorCode.payloadTooLarge,
  ErrorCode.unsupportedMediaType,
  ErrorCode.unsupportedDocument,
  ErrorCode.documentUnreadable,
  ErrorCode.routeRateLimited,
  ErrorCode.turnAborted,
  ErrorCode.internal,
]);

/** The code a native body (or a chat stream error event) shows, if any. */
export const nativeCode = (e: DomainError): ErrorCode | undefined => (UNCODED.has(e.code) ? undefined : e.code);

/**
 * Auth-stage errors keep the native shape on every route (SPEC, Authentication 6), and so does the
 * route-level 429 (SPEC: its body is in none of the dialects' shapes), which the gateway's answers meet in
 * their admission's statement rather than in the pipeline (`Needs.ratesWithAdmission`).
 */
const AUTH_STAGE = new Set<ErrorCode>([
  ErrorCode.unauthorized,
  ErrorCode.scopeDenied,
  ErrorCode.readOnlyKey,
  ErrorCode.clientSuspended,
  ErrorCode.providerUnpaid,
  ErrorCode.rateLimited,
  ErrorCode.routeRateLimited,
  ErrorCode.apiKeyBudgetExceeded,
]);

export const isAuthStage = (e: DomainError): boolean => AUTH_STAGE.has(e.code);

/** `{ error, code?, ...details }`; the route-level 429 gets its own plain body (SPEC: not a catalogue shape). */
export function nativeBody(e: DomainError): Record<string, unknown> {
  if (e.code === ErrorCode.routeRateLimited) return { message: e.message, ...e.details };
  const code = nativeCode(e);
  return { error: e.message, ...(code ? { code } : {}), ...e.details };
}

// ---- OpenAI: { error: { message, type, code, param } } ----

const OPENAI_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
  501: 'invalid_request_error',
};

/** Catalogue codes the OpenAI dialect names otherwise. */
const OPENAI_CODES: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.validationFailed]: 'invalid_request_error',
  [ErrorCode.invalidBody]: 'invalid_request_error',
};

function openai(e: DomainError): Rendered {
  // The allowance refusal is OpenAI's own quota error, without the native counts.
  if (e.code === ErrorCode.questionLimit) {
    const error = { message: 'You exceeded your current quota: no questions left', type: 'insufficient_quota', code: 'insufficient_quota', param: null };
    return { status: 402, body: { error }, headers: e.headers };
  }
  const type = OPENAI_TYPES[e.status] ?? 'server_error';
  const code = OPENAI_CODES[e.code] ?? nativeCode(e) ?? (e.status >= 500 && e.status !== 501 ? 'server_error' : null);
  const field = e.code === ErrorCode.validationFailed ? e.details.field : undefined;
  const param = typeof e.details.param === 'string' ? e.details.param : typeof field === 'string' ? field : null;
  // Quota refusals keep their details (`feature`, `requiredPlan`...) beside the four standard keys.
  const extra = e.status === 402 ? Object.fromEntries(Object.entries(e.details).filter(([k]) => k !== 'param')) : {};
  return { status: e.status, body: { error: { message: e.message, type, code, param, ...extra } }, headers: e.headers };
}

// ---- Anthropic: { type: "error", error: { type, message } } ----

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'rate_limit_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  501: 'invalid_request_error',
};

function anthropic(e: DomainError): Rendered {
  // The allowance refusal is a 429 `rate_limit_error`, deliberately without retry-after (SPEC: never retry).
  if (e.code === ErrorCode.questionLimit) {
    return { status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'No questions left in the workspace allowance' } }, headers: {} };
  }
  return { status: e.status, body: { type: 'error', error: { type: ANTHROPIC_TYPES[e.status] ?? 'api_error', message: e.message } }, headers: e.headers };
}

// ---- JSON-RPC 2.0: { jsonrpc: "2.0", id: null, error: { code, message, data } } ----

/** JSON-RPC's reserved codes: a body that is not JSON, a request that is not a valid JSON-RPC request, an internal error. */
export const JsonRpcCode = { parseError: -32700, invalidRequest: -32600, internalError: -32603 } as const;

/**
 * A request the MCP endpoint could not read or serve, as the JSON-RPC error object its clients parse
 * (the id is unknown when the body could not be read): a body that does not read as one JSON object is a
 * parse error (as the MCP SDK answers a message that is not JSON-RPC), any other 4xx an invalid request,
 * a failure an internal error; `data` carries the native body with the catalogue code.
 */
function jsonrpc(e: DomainError): Rendered {
  const code =
    e.status >= 500 ? JsonRpcCode.internalError : e.code === ErrorCode.invalidBody ? JsonRpcCode.parseError : JsonRpcCode.invalidRequest;
  const data = { ...nativeBody(e), code: e.code };
  return { status: e.status, body: { jsonrpc: '2.0', id: null, error: { code, message: e.message, data } }, headers: e.headers };
}

/**
 * The header by which the official OpenAI and Anthropic clients (and any Stainless-generated one) decide
 * whether to retry, before their own status rules: without it they retry every 408, 409, 429 and 5xx,
 * so a spent allowance on `/v1/messages` (429 without retry-after) or the reserved `debate:` address
 * (501) would be sent again two more times with their default settings.
 */
export const SHOULD_RETRY_HEADER = 'x-should-retry';

/**
 * SPEC, Retry rules, as the answer says it: a 429 with `retry-after` and a failure of the service (5xx
 * but 501) may be retried; anything else (400, 401, 402, 403, 404, 409, 413, 501, a 429 without
 * `retry-after`) may not.
 */
export const mayRetry = (status: number, headers: Record<string, string>): boolean =>
  status === 429 ? headers['retry-after'] !== undefined : status >= 500 && status !== 501;

const withRetryHeader = (r: Rendered): Rendered => ({ ...r, headers: { ...r.headers, [SHOULD_RETRY_HEADER]: String(mayRetry(r.status, r.headers)) } });

/**
 * Status, body and headers of an error answered on `dialect` (auth-stage errors stay native everywhere),
 * with `x-should-retry` on every shape.
 */
export function renderError(e: DomainError, dialect: Dialect): Rendered {
  if (dialect === 'openai' && !isAuthStage(e)) return withRetryHeader(openai(e));
  if (dialect === 'anthropic' && !isAuthStage(e)) return withRetryHeader(anthropic(e));
  if (dialect === 'jsonrpc' && !isAuthStage(e)) return withRetryHeader(jsonrpc(e));
  return withRetryHeader({ status: e.status, body: nativeBody(e), headers: e.headers });
}

export const openaiBody = (e: DomainError): Record<string, unknown> => openai(e).body;
export const anthropicBody = (e: DomainError): Record<string, unknown> => anthropic(e).body;

// ---- GraphQL: GraphQLError with extensions.code ----

/**
 * `extensions`: the catalogue code (every error has one), the HTTP status REST would answer, the details,
 * the kind of object of a `not_found`, and `retryAfter` (seconds) where REST sends a retry-after header.
 */
export function graphqlError(e: DomainError): GraphQLError {
  const retryAfter = e.headers['retry-after'];
  return new GraphQLError(e.message, {
    extensions: {
      code: e.code,
      status: e.status,
      ...e.details,
      ...(e.resource ? { resource: e.resource } : {}),
      ...(retryAfter !== undefined && Number.isFinite(Number(retryAfter)) ? { retryAfter: Number(retryAfter) } : {}),
    },
  });
}

/**
 * A refusal of the GraphQL layer before any resolver runs: `extensions` `{ code, status: 400, ...extra }`
 * (`extra`: the refused field, the GraphQL-over-HTTP status).
 */
export function graphqlRefusal(message: string, code: GraphQLRefusalCode, extra: Record<string, unknown> = {}, nodes?: ASTNode): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code, status: 400, ...extra } });
}

// ---- MCP: a tool error (`isError: true`), never a protocol error ----

/** The result of a refused or failed MCP tool call (the SDK's `CallToolResult` with `isError`). */
export interface McpToolError {
  [key: string]: unknown;
  isError: true;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
}

/**
 * A tool error whose text names the code and says why (`<code>: <message>`), with the native body's
 * fields as structured content: `{ error, code, ...details }` (the code always, even where the native
 * REST body omits it: the model reading it has no status to go by).
 */
export function mcpToolError(e: DomainError): McpToolError {
  return { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }], structuredContent: { error: e.message, code: e.code, ...e.details } };
}

// ---- SSE in-stream errors (after the stream opened, the status is already 200) ----

/** One Server-Sent Event: `event: <event>` when named, then `data: <json>` (or `[DONE]`). */
export interface SseFrame {
  event?: string;
  data: unknown;
}

export interface ChatStreamErrorEvent {
  type: 'error';
  data: { status: number; error: string; code?: string; [detail: string]: unknown };
}

/** Native chat stream: `{"type":"error","data":{ status, error, code?, ...details }}`. */
export function chatStreamError(e: DomainError): ChatStreamErrorEvent {
  const code = nativeCode(e);
  return { type: 'error', data: { status: e.status, error: e.message, ...(code ? { code } : {}), ...e.details } };
}

/** OpenAI stream: `data: {"error":{...}}` then `data: [DONE]`. */
export const openaiStreamError = (e: DomainError): SseFrame[] => [{ data: openai(e).body }, { data: '[DONE]' }];

/** Anthropic stream: `event: error` with `{"type":"error","error":{...}}`. */
export const anthropicStreamError = (e: DomainError): SseFrame[] => [{ event: 'error', data: anthropic(e).body }];

export const dialectStreamError = (e: DomainError, dialect: 'openai' | 'anthropic'): SseFrame[] =>
  dialect === 'openai' ? openaiStreamError(e) : anthropicStreamError(e);
