import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicBody, errorBody, nativeBody, openaiBody } from '../../rest/errors.js';
import { DomainError, ErrorCode, errors, toDomainError } from '../../src/errors/index.js';

describe('error catalogue', () => {
  it('carries the SPEC status and code of each entry', () => {
    const table: [DomainError, number, string | undefined][] = [
      [errors.badRequest('x'), 400, undefined],
      [errors.invalidRequest('x'), 400, 'invalid_request_error'],
      [errors.payloadTooLarge('x'), 413, undefined],
      [errors.unauthorized('x'), 401, undefined],
      [errors.scopeDenied('agents'), 403, 'scope_denied'],
      [errors.readOnlyKey(), 403, 'read_only_key'],
      [errors.clientSuspended(), 403, 'client_suspended'],
      [errors.providerUnpaid(), 403, 'provider_unpaid'],
      [errors.insufficientQuota(), 402, 'insufficient_quota'],
      [errors.questionLimit(2, 1), 402, 'QUESTION_LIMIT'],
      [errors.subscriptionInactive(), 402, 'SUBSCRIPTION_INACTIVE'],
      [errors.planUpgradeRequired('chat', 'pro'), 402, 'PLAN_UPGRADE_REQUIRED'],
      [errors.documentLimit(10, 10), 402, 'DOCUMENT_LIMIT'],
      [errors.seatLimit(3), 402, 'SEAT_LIMIT'],
      [errors.apiKeyBudgetExceeded(), 402, 'API_KEY_BUDGET_EXCEEDED'],
      [errors.notFound('x'), 404, undefined],
      [errors.modelNotFound('agent:x'), 404, 'model_not_found'],
      [errors.conversationNotFound('c'), 404, 'conversation_not_found'],
      [errors.proofNotFound('p'), 404, 'proof_not_found'],
      [errors.versionConflict(3), 409, 'version_conflict'],
      [errors.rateLimited(12), 429, 'rate_limited'],
      [errors.routeRateLimited('gateway', 60), 429, undefined],
      [errors.internal(), 500, undefined],
      [errors.addressNotSupported('debate:x'), 501, 'address_not_supported'],
    ];
    for (const [e, status, code] of table) {
      expect(e.status).toBe(status);
      expect(e.code).toBe(code);
    }
    expect(errors.rateLimited(12).headers['retry-after']).toBe('12');
  });

  it('renders the native shape with details', () => {
    expect(nativeBody(errors.questionLimit(3, 1))).toEqual({ error: 'Insufficient tokens', code: 'QUESTION_LIMIT', required: 3, available: 1 });
    expect(nativeBody(errors.planUpgradeRequired('chat', 'pro'))).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', feature: 'chat', requiredPlan: 'pro' });
    expect(nativeBody(errors.notFound('Agent not found: a'))).toEqual({ error: 'Agent not found: a' });
  });

  it('renders the OpenAI and Anthropic shapes', () => {
    expect(openaiBody(errors.invalidRequest('messages is required', 'messages'))).toEqual({
      error: { message: 'messages is required', type: 'invalid_request_error', code: 'invalid_request_error', param: 'messages' },
    });
    expect(openaiBody(errors.internal())).toEqual({ error: { message: 'Internal server error', type: 'server_error', code: 'server_error', param: null } });
    expect(anthropicBody(errors.notFound('nope', ErrorCode.notFoundError))).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'nope' } });
    expect(anthropicBody(errors.internal())).toEqual({ type: 'error', error: { type: 'api_error', message: 'Internal server error' } });
  });

  it('keeps auth-stage errors native on dialect routes', () => {
    for (const e of [errors.unauthorized('x'), errors.scopeDenied('engine'), errors.rateLimited(3), errors.apiKeyBudgetExceeded()]) {
      expect(errorBody(e, 'openai')).toEqual(nativeBody(e));
      expect(errorBody(e, 'anthropic')).toEqual(nativeBody(e));
    }
    expect(errorBody(errors.insufficientQuota(), 'openai')).toMatchObject({ error: { code: 'insufficient_quota' } });
    expect(errorBody(errors.planUpgradeRequired('chat', 'pro'), 'openai')).toEqual({
      error: { message: 'Your plan does not include chat', type: 'insufficient_quota', code: 'PLAN_UPGRADE_REQUIRED', param: null, feature: 'chat', requiredPlan: 'pro' },
    });
  });

  it('translates zod errors to a 400 naming the field, unknown errors to a generic 500', () => {
    const parsed = z.object({ options: z.object({ maxTokens: z.number().max(4000) }) }).safeParse({ options: { maxTokens: 5000 } });
    const { error } = toDomainError(parsed.error);
    expect(error.status).toBe(400);
    expect(error.message).toContain('options.maxTokens');
    const unknown = toDomainError(new Error('secret internals'));
    expect(unknown.unexpected).toBe(true);
    expect(unknown.error.message).toBe('Internal server error');
  });
});
