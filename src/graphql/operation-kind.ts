import { getOperationAST, parse, type OperationTypeNode } from 'graphql';
import { GRAPHQL_LIMITS } from './limits.js';

/**
 * The kind of the operation a GraphQL request asks for (`query`, `mutation`, `subscription`), or
 * undefined when the document does not parse, is too long or names no single operation (yoga then
 * refuses it itself, before anything runs).
 */
export function operationKind(params: { query?: string; operationName?: string | null }): OperationTypeNode | undefined {
  if (typeof params.query !== 'string') return undefined;
  try {
    const document = parse(params.query, { maxTokens: GRAPHQL_LIMITS.tokens, noLocation: true });
    return getOperationAST(document, params.operationName ?? undefined)?.operation;
  } catch {
    return undefined;
  }
}
