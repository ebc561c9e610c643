import type { Response } from 'express';
import { DomainError, ErrorCode, toDomainError } from '../src/errors/index.js';
import type { Logger } from '../src/lib/logger.js';

export type Dialect = 'native' | 'openai' | 'anthropic';

/** Auth-stage errors keep the native shape on every route (SPEC, Authentication 6). */
const AUTH_STAGE_CODES = new Set<string>([
  ErrorCode.scopeDenied,
  ErrorCode.readOnlyKey,
  ErrorCode.clientSuspended,
  ErrorCode.providerUnpaid,
  ErrorCode.rateLimited,
  ErrorCode.apiKeyBudgetExceeded,
]);

export const isAuthStage = (e: DomainError): boolean => e.status === 401 || (e.code !== undefined && AUTH_STAGE_CODES.has(e.code));

/** `{ error, code?, ...details }`; route-level 429s get their own plain body (SPEC: not a catalogue shape). */
export function nativeBody(e: DomainError): Record<string, unknown> {
  if (e.status === 429 && !e.code) return { message: e.message, ...e.details };
  return { error: e.message, ...(e.code ? { code: e.code } : {}), ...e.details };
}

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

export function openaiBody(e: DomainError): Record<string, unknown> {
  const type = OPENAI_TYPES[e.status] ?? 'server_error';
  const code = e.code ?? (e.status >= 500 && e.status !== 501 ? ErrorCode.serverError : null);
  const param = typeof e.details.param === 'string' ? e.details.param : null;
  // Quota refusals keep their details (`feature`, `requiredPlan`...) beside the four standard keys.
  const extra = e.status === 402 ? Object.fromEntries(Object.entries(e.details).filter(([k]) => k !== 'param')) : {};
  return { error: { message: e.message, type, code, param, ...extra } };
}

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

export function anthropicBody(e: DomainError): Record<string, unknown> {
  return { type: 'error', error: { type: ANTHROPIC_TYPES[e.status] ?? 'api_error', message: e.message } };
}

export function errorBody(e: DomainError, dialect: Dialect): Record<string, unknown> {
  if (dialect === 'native' || isAuthStage(e)) return nativeBody(e);
  return dialect === 'openai' ? openaiBody(e) : anthropicBody(e);
}

/** Renders anything thrown; unexpected errors are logged and become a generic 500. */
export function sendError(res: Response, err: unknown, dialect: Dialect, log: Logger): void {
  const { error, unexpected } = toDomainError(err);
  if (unexpected) log.error({ err }, 'unexpected error');
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
  res.status(error.status).json(errorBody(error, dialect));
}
