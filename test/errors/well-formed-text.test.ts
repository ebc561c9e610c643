import { describe, expect, it } from 'vitest';
import { errors, illFormedTextError, renderError } from '../../src/errors/index.js';
import { firstIllFormedText } from '../../src/lib/well-formed-text.js';

describe('firstIllFormedText', () => {
  it('a lone high or low surrogate in a string value: the path to it', () => {
    expect(firstIllFormedText({ name: 'a\uD800' })).toEqual(['name']);
    expect(firstIllFormedText({ context: [{ category: 'c' }, { label: '\uDC00x' }] })).toEqual(['context', '1', 'label']);
    expect(firstIllFormedText('\uD83D')).toEqual([]);
  });

  it('a lone surrogate in an object key: the path ends with the key (made printable)', () => {
    expect(firstIllFormedText({ outer: { ['k\uD83D']: 1 } })).toEqual(['outer', 'k\uFFFD']);
  });

  it('well-formed text passes: pairs (emoji), other scripts, NUL and empty strings', () => {
    expect(firstIllFormedText({ name: 'Ada 👩🏽‍💻 エイダ \u{1F600}', nul: 'a\u0000b', empty: '', n: 1, b: true, z: null, list: ['é'] })).toBeUndefined();
  });

  it('the first in document order is named', () => {
    expect(firstIllFormedText({ a: 'ok', b: '\uD800', c: '\uD800' })).toEqual(['b']);
  });

  it('any depth is safe (iterative)', () => {
    let deep: unknown = '\uD800';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(firstIllFormedText(deep)).toHaveLength(100_000);
  });
});

describe('illFormedTextError', () => {
  it('a 400 validation error naming the field (no wire code: SPEC "none")', () => {
    const e = illFormedTextError(['context', '0', 'label']);
    expect(renderError(e, 'native')).toMatchObject({ status: 400, body: { error: 'context.0.label must be well-formed Unicode text (it holds a lone surrogate)', field: 'context.0.label' } });
    expect(renderError(e, 'native').body.code).toBeUndefined();
    expect(illFormedTextError([]).message).toMatch(/^The request body must be well-formed/);
  });
});

describe('the JSON-RPC dialect (the MCP endpoint)', () => {
  it('an unreadable body is a parse error (-32700), with the native body and catalogue code as data', () => {
    expect(renderError(errors.invalidBody('Malformed JSON body'), 'jsonrpc')).toEqual({
      status: 400,
      headers: { 'x-should-retry': 'false' },
      body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Malformed JSON body', data: { error: 'Malformed JSON body', code: 'invalid_body' } } },
    });
  });

  it('a refused field or an oversized body is an invalid request (-32600); a failure an internal error (-32603)', () => {
    const field = renderError(errors.validation('params.arguments.text', 'bad'), 'jsonrpc');
    expect(field.status).toBe(400);
    expect(field.body.error).toMatchObject({ code: -32600, data: { code: 'validation_failed', field: 'params.arguments.text' } });
    expect(renderError(errors.payloadTooLarge(), 'jsonrpc')).toMatchObject({ status: 413, body: { error: { code: -32600 } } });
    expect(renderError(errors.internal(), 'jsonrpc')).toMatchObject({ status: 500, body: { error: { code: -32603 } } });
  });

  it('auth-stage refusals stay native (SPEC Authentication 6)', () => {
    expect(renderError(errors.unauthorized('Missing API key'), 'jsonrpc').body).toEqual({ error: 'Missing API key' });
    expect(renderError(errors.rateLimited(12), 'jsonrpc').body).toMatchObject({ code: 'rate_limited' });
  });
});
