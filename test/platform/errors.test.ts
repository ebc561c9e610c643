import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicBody, errorBody, nativeBody, openaiBody } from '../../rest/errors.js';
import { DomainError, errors, toDomainError } from '../../src/errors/index.js';

describe('error catalogue', () => {
  it('carries the SPEC status of each entry, and a code on every one (shown on the native wire only where SPEC names one)', () => {
    const table: [DomainError, number, string, string | undefined][] = [
      [errors.validation(null, 'x'), 400, 'validation_failed', undefined],
      [errors.validation('messages', 'x'), 400, 'validation_failed', undefined],
      [errors.payloadTooLarge('x'), 413, 'payload_too_large', undefined],
      [errors.unauthorized('x'), 401, 'unauthorized', undefined],
      [errors.scopeDenied('agents'), 403, 'scope_denied', 'scope_denied'],
      [errors.readOnlyKey(), 403, 'read_only_key', 'read_only_key'],
      [errors.clientSuspended(), 403, 'client_suspended', 'client_suspended'],
      [errors.providerUnpaid(), 403, 'provider_unpaid', 'provider_unpaid'],
      [errors.questionLimit(2, 1), 402, 'QUESTION_LIMIT', 'QUESTION_LIMIT'],
      [errors.subscriptionInactive(), 402, 'SUBSCRIPTION_INACTIVE', 'SUBSCRIPTION_INACTIVE'],
      [errors.planUpgradeRequired('chat', 'pro'), 402, 'PLAN_UPGRADE_REQUIRED', 'PLAN_UPGRADE_REQUIRED'],
      [errors.documentLimit(10, 10), 402, 'DOCUMENT_LIMIT', 'DOCUMENT_LIMIT'],
      [errors.seatLimit(3), 402, 'SEAT_LIMIT', 'SEAT_LIMIT'],
      [errors.apiKeyBudgetExceeded(), 402, 'API_KEY_BUDGET_EXCEEDED', 'API_KEY_BUDGET_EXCEEDED'],
      [errors.notFound('agent', 'x'), 404, 'not_found', undefined],
      [errors.modelNotFound('agent:x'), 404, 'model_not_found', 'model_not_found'],
      [errors.conversationNotFound('c'), 404, 'conversation_not_found', 'conversation_not_found'],
      [errors.proofNotFound('p'), 404, 'proof_not_found', 'proof_not_found'],
      [errors.versionConflict(3), 409, 'version_conflict', 'version_conflict'],
      [errors.rateLimited(12), 429, 'rate_limited', 'rate_limited'],
      [errors.routeRateLimited('gateway', 60), 429, 'route_rate_limited', undefined],
      [errors.internal(), 500, 'internal_error', undefined],
      [errors.addressNotSupported('debate:x'), 501, 'address_not_supported', 'address_not_supported'],
    ];
    for (const [e, status, code, wire] of table) {
      expect(e.status).toBe(status);
      expect(e.code).toBe(code);
      expect(nativeBody(e).code).toBe(wire);
    }
    expect(errors.rateLimited(12).headers['retry-after']).toBe('12');
  });

  it('renders the native shape with details', () => {
    expect(nativeBody(errors.questionLimit(3, 1))).toEqual({ error: 'Insufficient tokens', code: 'QUESTION_LIMIT', required: 3, available: 1 });
    expect(nativeBody(errors.planUpgradeRequired('chat', 'pro'))).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', feature: 'chat', requiredPlan: 'pro' });
    expect(nativeBody(errors.notFound('agent', 'a'))).toEqual({ error: 'Agent not found: a' });
  });

  it('renders the OpenAI and Anthropic shapes', () => {
    expect(openaiBody(errors.validation('messages', 'messages is required'))).toEqual({
      error: { message: 'messages is required', type: 'invalid_request_error', code: 'invalid_request_error', param: 'messages' },
    });
    expect(openaiBody(errors.internal())).toEqual({ error: { message: 'Internal server error', type: 'server_error', code: 'server_error', param: null } });
    expect(anthropicBody(errors.notFound('agent', null, 'nope'))).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'nope' } });
    expect(anthropicBody(errors.internal())).toEqual({ type: 'error', error: { type: 'api_error', message: 'Internal server error' } });
  });

  it('keeps auth-stage errors native on dialect routes', () => {
    for (const e of [errors.unauthorized('x'), errors.scopeDenied('engine'), errors.rateLimited(3), errors.apiKeyBudgetExceeded()]) {
      expect(errorBody(e, 'openai')).toEqual(nativeBody(e));
      expect(errorBody(e, 'anthropic')).toEqual(nativeBody(e));
    }
    expect(errorBody(errors.questionLimit(1, 0), 'openai')).toEqual({
      error: { message: 'You exceeded your current quota: no questions left', type: 'insufficient_quota', code: 'insufficient_quota', param: null },
    });
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
