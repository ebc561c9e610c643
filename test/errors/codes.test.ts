/**
 * Every code a client can see comes from the catalogue (src/errors/catalogue.ts: `ErrorCode`, the GraphQL
 * layer's `GraphQLRefusalCode`, the flows' `FlowFailureCode` and `GraphProblemCode`): no source outside
 * src/errors writes a code as a string literal, and the MCP and GraphQL refusal renderers give the wire
 * shapes the adapters had before (docs/architecture.md, "Errors at the edges").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  FlowFailureCode,
  GraphProblemCode,
  GraphQLRefusalCode,
  errors,
  graphqlRefusal,
  mcpToolError,
} from '../../src/errors/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Code literals written in a source: `code: '…'`, `errorCode: '…'` (an object's code or a comparison
 * target written by hand), zod's own issue code `addIssue({ code: 'custom' })` excepted.
 */
function codeLiterals(text: string): string[] {
  return [...text.matchAll(/\b(?:code|errorCode)\s*:\s*(['"`])([^'"`]+)\1/g)]
    .filter((m) => !(m[2] === 'custom' && /addIssue\(\{\s*$/.test(text.slice(Math.max(0, m.index! - 20), m.index))))
    .map((m) => m[2]!);
}

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') || f.endsWith('.tsx'))
    .map((f) => join(dir, f));

describe('codes come from the catalogue', () => {
  it('the scan finds a code written by hand (and leaves zod custom issues alone)', () => {
    expect(codeLiterals(`problems.push({ code: 'made_up', message }); ctx.addIssue({ code: 'custom', message: 'x' });`)).toEqual(['made_up']);
    expect(codeLiterals('finishRun(app, tx, run, { status: "failed", errorCode: "approval_timed_out" })')).toEqual(['approval_timed_out']);
  });

  it('no source outside src/errors writes a code literal (src/, rest/)', () => {
    const found = [...sources('src'), ...sources('rest')]
      .filter((f) => !f.startsWith('src/errors/'))
      .flatMap((f) => codeLiterals(readFileSync(join(root, f), 'utf8')).map((code) => `${f}: ${code}`));
    expect(found).toEqual([]);
  });

  it('the code sets are snake_case (or SPEC upper case) and have no duplicate values within a set', () => {
    for (const set of [ErrorCode, GraphQLRefusalCode, FlowFailureCode, GraphProblemCode]) {
      const values = Object.values(set) as string[];
      expect(new Set(values).size).toBe(values.length);
      for (const v of values) expect(v).toMatch(/^([a-z]+(_[a-z]+)*|[A-Z]+(_[A-Z]+)*)$/);
    }
    expect(FlowFailureCode).toMatchObject({ creatorMissing: 'creator_missing', outboundOutcomeUnknown: 'outbound_outcome_unknown', approvalTimedOut: 'approval_timed_out' });
    expect(GraphQLRefusalCode).toMatchObject({ jsonTooDeep: 'json_too_deep', limitedFieldRepeated: 'limited_field_repeated' });
  });
});

describe('the edge renderers', () => {
  it('MCP: a tool error naming the code, with the native fields as structured content', () => {
    expect(mcpToolError(errors.scopeDenied('engine'))).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'scope_denied: API key lacks the required scope: engine' }],
      structuredContent: { error: 'API key lacks the required scope: engine', code: 'scope_denied', scope: 'engine' },
    });
    // The code is shown even where the native REST body omits it (validation, 404): the model has no status.
    expect(mcpToolError(errors.validation('query', 'query is required')).structuredContent).toEqual({
      error: 'query is required',
      code: 'validation_failed',
      field: 'query',
    });
  });

  it('GraphQL: a refusal before any resolver is a 400 with its catalogue code and extras', () => {
    const e = graphqlRefusal('chat has a request ceiling and may appear once per operation (found 2)', GraphQLRefusalCode.limitedFieldRepeated, { field: 'chat' });
    expect(e.toJSON()).toEqual({
      message: 'chat has a request ceiling and may appear once per operation (found 2)',
      extensions: { code: 'limited_field_repeated', status: 400, field: 'chat' },
    });
  });
});
