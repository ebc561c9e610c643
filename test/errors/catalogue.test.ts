import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DomainError,
  ErrorCode,
  anthropicBody,
  anthropicStreamError,
  bodyParseError,
  chatStreamError,
  errors,
  graphqlError,
  isAuthStage,
  openaiBody,
  openaiStreamError,
  renderError,
  toDomainError,
  translated,
  type Dialect,
} from '../../src/errors/index.js';
import { IngestionFailure } from '../../src/modules/knowledge/analyse.js';
import { UnsupportedDocumentError } from '../../src/modules/knowledge/parsing/errors.js';
import { ProviderError } from '../../src/modules/models/provider.js';
import { OutboundUrlError } from '../../src/net/index.js';

/** Sample arguments of every factory: a factory added to the catalogue without a line here fails to compile. */
const SAMPLES: { [K in keyof typeof errors]: Parameters<(typeof errors)[K]> } = {
  validation: ['options.maxTokens', 'options.maxTokens must be at most 4000'],
  invalidBody: ['Malformed JSON body'],
  alreadyExists: [],
  urlRefused: ['url', 'Invalid webhook url: address 10.0.0.1 is in a private range', { reason: 'address 10.0.0.1 is in a private range' }],
  paidPlanRequired: ['Question packs need a paid plan'],
  textRequired: [],
  invalidPassages: [],
  ambiguousScope: [],
  malformedRequest: [],
  unauthorized: ['Missing API key'],
  scopeDenied: ['agents'],
  readOnlyKey: [],
  clientSuspended: [],
  providerUnpaid: [],
  personRequired: [],
  csrfRejected: [],
  adminRequired: [],
  linkInvalid: [],
  questionLimit: [2, 1],
  subscriptionInactive: [],
  planUpgradeRequired: ['chat', 'pro'],
  documentLimit: [300, 300],
  seatLimit: [3],
  apiKeyBudgetExceeded: [],
  notFound: ['agent', 'agt_x'],
  modelNotFound: ['agent:nobody'],
  conversationNotFound: ['conv_x'],
  proofNotFound: ['prf_x'],
  requestTimeout: [],
  versionConflict: [4],
  invalidGraph: [[{ code: 'cycle', message: 'The graph has a cycle: a → b → a', nodeKey: 'a' }]],
  approvalClosed: ['approved'],
  approvalClaimed: [],
  runNotResumable: ['succeeded'],
  runFinished: ['cancelled'],
  invalidSignature: [],
  webhookReplayed: ['run_x'],
  flowDisabled: [],
  payloadTooLarge: [],
  textTooLarge: [100_000],
  invalidProvider: ['gpt-x', ['auto', 'local']],
  posteAlreadyInstalled: ['contract-review', 'agt_x'],
  unknownPosteTemplate: ['nope', ['contract-review']],
  dossierEmpty: ['dos_x'],
  webSearchNotConfigured: [],
  webSearchFailed: [],
  conversationBusy: ['conv_x'],
  unsupportedMediaType: ['Unsupported media type'],
  unsupportedDocument: ['Unsupported file type: .png'],
  documentUnreadable: ['The file is empty'],
  headersTooLarge: [],
  rateLimited: [12],
  routeRateLimited: ['POST /v1/chat/completions', 60, 7],
  turnAborted: [],
  internal: [],
  addressNotSupported: ['debate:x'],
  serverRestarting: [],
  widgetAgentUnscoped: ['agt_x'],
  originNotAllowed: ['https://elsewhere.example'],
  methodNotAllowed: ['POST'],
  widgetMonthlyLimit: [100],
  partnerRequired: [],
  invoiceNotPayable: ['paid'],
  paymentsNotConfigured: [],
  paymentProviderError: [],
  webhookSignatureInvalid: [],
  authorizationPending: [],
  deviceCodeInvalid: [],
};

const entries = Object.entries(SAMPLES).map(([name, args]) => {
  const factory = errors[name as keyof typeof errors] as (...a: unknown[]) => DomainError;
  return [name, factory(...args)] as const;
});

const CODES = new Set<string>(Object.values(ErrorCode));
const DIALECTS: Dialect[] = ['native', 'openai', 'anthropic'];
/** A body is well formed when it survives the wire (JSON) unchanged. */
const wireSafe = (body: unknown) => expect(JSON.parse(JSON.stringify(body))).toEqual(body);

describe('the error catalogue, rendered in every shape', () => {
  it('every factory gives a DomainError with a catalogue code and an error status; every code has a factory', () => {
    for (const [name, e] of entries) {
      expect(e, name).toBeInstanceOf(DomainError);
      expect(CODES.has(e.code), `${name}: ${e.code}`).toBe(true);
      expect(e.status, name).toBeGreaterThanOrEqual(400);
      expect(e.status, name).toBeLessThan(600);
      expect(e.message.length, name).toBeGreaterThan(0);
    }
    expect(new Set(entries.map(([, e]) => e.code))).toEqual(CODES);
  });

  it.each(entries)('%s: native, OpenAI and Anthropic bodies', (_name, e) => {
    for (const dialect of DIALECTS) {
      const { status, body, headers } = renderError(e, dialect);
      wireSafe(body);
      // SPEC, Retry rules, in the header the official clients obey: a 429 with retry-after and a 5xx but 501 only.
      const retry = status === 429 ? headers['retry-after'] !== undefined : status >= 500 && status !== 501;
      expect(headers['x-should-retry']).toBe(String(retry));
      const native = dialect === 'native' || isAuthStage(e);
      if (native) {
        expect(status).toBe(e.status);
        expect(headers).toEqual({ ...e.headers, 'x-should-retry': String(retry) });
        if (e.code === ErrorCode.routeRateLimited) {
          // SPEC: the route-level 429 has a body of its own, none of the three shapes.
          expect(body).toEqual({ message: e.message, ...e.details });
        } else {
          expect(body.error).toBe(e.message);
          expect(body.code === undefined || body.code === e.code).toBe(true);
          for (const [k, v] of Object.entries(e.details)) expect(body[k]).toEqual(v);
        }
      } else if (dialect === 'openai') {
        const error = body.error as Record<string, unknown>;
        expect(Object.keys(body)).toEqual(['error']);
        expect(typeof error.message).toBe('string');
        expect(typeof error.type).toBe('string');
        expect(error.code === null || typeof error.code === 'string').toBe(true);
        expect(error.param === null || typeof error.param === 'string').toBe(true);
        expect(status).toBe(e.status);
        if (e.status >= 500 && e.status !== 501) expect(error.type).toBe('server_error');
        if (e.code === ErrorCode.internal) expect(error.code).toBe('server_error');
      } else {
        expect(Object.keys(body)).toEqual(['type', 'error']);
        expect(body.type).toBe('error');
        const error = body.error as Record<string, unknown>;
        expect(Object.keys(error)).toEqual(['type', 'message']);
        expect(typeof error.type).toBe('string');
        expect(typeof error.message).toBe('string');
        expect(status).toBe(e.code === ErrorCode.questionLimit ? 429 : e.status);
        if (e.status >= 500 && e.status !== 501) expect(error.type).toBe('api_error');
      }
    }
  });

  it.each(entries)('%s: GraphQL error with the catalogue code', (_name, e) => {
    const g = graphqlError(e);
    expect(g).toBeInstanceOf(GraphQLError);
    expect(g.message).toBe(e.message);
    expect(g.extensions).toMatchObject({ code: e.code, status: e.status, ...e.details });
    if (e.headers['retry-after'] !== undefined) expect(g.extensions.retryAfter).toBe(Number(e.headers['retry-after']));
    wireSafe(g.toJSON());
  });

  it.each(entries)('%s: the three in-stream SSE error events', (_name, e) => {
    const chat = chatStreamError(e);
    expect(chat.type).toBe('error');
    expect(chat.data).toMatchObject({ status: e.status, error: e.message, ...e.details });
    wireSafe(chat);

    const openai = openaiStreamError(e);
    expect(openai).toHaveLength(2);
    expect(openai[0]!.event).toBeUndefined();
    // Once a stream is open every error is in-band in the dialect's shape (auth-stage ones included).
    expect(openai[0]!.data).toEqual(openaiBody(e));
    expect(openai[1]).toEqual({ data: '[DONE]' });

    const anthropic = anthropicStreamError(e);
    expect(anthropic).toEqual([{ event: 'error', data: anthropicBody(e) }]);
    wireSafe(anthropic);
  });
});

describe('SPEC wire codes', () => {
  it('keeps codes SPEC calls "none" off the native wire, and shows the others', () => {
    const none = [
      errors.validation('name', 'name is required'),
      errors.invalidBody('Malformed JSON body'),
      errors.unauthorized('Missing API key'),
      errors.notFound('webhook'),
      errors.payloadTooLarge(),
      errors.internal(),
    ];
    for (const e of none) expect(renderError(e, 'native').body.code).toBeUndefined();
    expect(renderError(errors.validation('name', 'name is required'), 'native').body).toEqual({ error: 'name is required', field: 'name' });
    expect(renderError(errors.notFound('webhook'), 'native').body).toEqual({ error: 'Webhook not found' });
    expect(renderError(errors.versionConflict(3), 'native').body).toEqual({ error: 'Version conflict', code: 'version_conflict', currentVersion: 3 });
  });

  it('one semantic error per refusal: each dialect words its own twin', () => {
    const quota = errors.questionLimit(3, 1);
    expect(renderError(quota, 'native')).toMatchObject({ status: 402, body: { code: 'QUESTION_LIMIT', required: 3, available: 1 } });
    expect(renderError(quota, 'openai')).toMatchObject({ status: 402, body: { error: { type: 'insufficient_quota', code: 'insufficient_quota', param: null } } });
    expect(renderError(quota, 'anthropic')).toEqual({
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'No questions left in the workspace allowance' } },
      // No retry-after, and the clients told not to retry it (SPEC: never).
      headers: { 'x-should-retry': 'false' },
    });
    const invalid = errors.validation('messages', 'messages is required');
    expect(renderError(invalid, 'openai').body).toEqual({
      error: { message: 'messages is required', type: 'invalid_request_error', code: 'invalid_request_error', param: 'messages' },
    });
    expect(renderError(invalid, 'anthropic').body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'messages is required' } });
    expect(chatStreamError(quota)).toEqual({ type: 'error', data: { status: 402, error: 'Insufficient tokens', code: 'QUESTION_LIMIT', required: 3, available: 1 } });
  });
});

describe('translation in one place', () => {
  it('zod, MikroORM, NUL characters and the module errors become catalogue errors', () => {
    const parsed = z.object({ message: z.string() }).safeParse({});
    expect(toDomainError(parsed.error).error).toMatchObject({ status: 400, code: 'validation_failed', details: { field: 'message' } });
    expect(toDomainError(new NotFoundError('gone')).error).toMatchObject({ status: 404, code: 'not_found', resource: 'record' });
    expect(toDomainError(new UniqueConstraintViolationException(new Error('duplicate key'))).error).toMatchObject({ status: 400, code: 'already_exists' });
    expect(toDomainError(new Error('invalid byte sequence for encoding "UTF8": 0x00')).error).toMatchObject({ status: 400, code: 'validation_failed' });

    expect(toDomainError(new ProviderError('aborted', { provider: 'p', aborted: true }))).toMatchObject({ error: { status: 499, code: 'turn_aborted' }, unexpected: false });
    const failed = toDomainError(new ProviderError('HTTP 500: secret', { provider: 'p', status: 500 }));
    expect(failed.unexpected).toBe(true);
    expect(failed.error).toMatchObject({ status: 500, code: 'internal_error', message: 'The model failed to answer' });

    const refused = new OutboundUrlError('address 10.0.0.1 is in a private range');
    expect(translated(refused, 'webhook.url')).toMatchObject({
      code: 'url_refused',
      message: 'Invalid webhook url: address 10.0.0.1 is in a private range',
      details: { field: 'url', reason: 'address 10.0.0.1 is in a private range' },
    });
    expect(translated(refused, 'tool.urlTemplate')).toMatchObject({ message: 'urlTemplate refused: address 10.0.0.1 is in a private range', details: { field: 'urlTemplate' } });

    const unsupported = UnsupportedDocumentError.forType('.png');
    expect(toDomainError(new IngestionFailure(unsupported.message, { cause: unsupported })).error).toBe(unsupported);
    expect(toDomainError(new IngestionFailure('The original document is missing')).error).toMatchObject({ status: 422, code: 'document_unreadable' });

    const unknown = new Error('secret internals');
    expect(translated(unknown)).toBe(unknown);
    expect(toDomainError(unknown)).toMatchObject({ error: { status: 500, message: 'Internal server error' }, unexpected: true });
  });

  it('one body-parse mapping', () => {
    expect(bodyParseError({ type: 'entity.too.large', status: 413 })).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(bodyParseError({ type: 'entity.parse.failed', status: 400 })).toMatchObject({ status: 400, code: 'invalid_body', message: 'Malformed JSON body' });
    expect(bodyParseError({ type: 'encoding.unsupported', status: 415 })).toMatchObject({ code: 'invalid_body', message: 'Unsupported body encoding' });
    expect(bodyParseError(Object.assign(new URIError('URI malformed'), { status: 400 }))).toMatchObject({ message: 'Malformed URL encoding in path' });
    expect(bodyParseError({ type: 'request.aborted', status: 400 }, 'Unreadable request body')).toMatchObject({ message: 'Unreadable request body' });
    expect(bodyParseError(new Error('boom'))).toBeUndefined();
  });
});
