import { GraphQLError } from 'graphql';
import { toDomainError } from '../errors/index.js';
import type { Logger } from '../lib/logger.js';

/** Yoga may hand us a GraphQLError of another `graphql` copy (ESM/CJS): unwrap by shape, not by class. */
function unwrap(err: unknown): unknown {
  let current = err;
  while (current && typeof current === 'object' && 'originalError' in current && (current as { originalError?: unknown }).originalError) {
    current = (current as { originalError: unknown }).originalError;
  }
  return current;
}

const isPlainGraphQLError = (err: unknown): boolean =>
  !!err && typeof err === 'object' && (err as Error).name === 'GraphQLError' && !(err as { originalError?: unknown }).originalError;

/**
 * Catalogue errors become GraphQL errors carrying `extensions.code` (or `HTTP_<status>`), status and
 * details, and `retryAfter` (seconds) where REST sends a retry-after header.
 */
export function toGraphQLError(err: unknown, log?: Logger): GraphQLError {
  // Validation and syntax errors raised by GraphQL itself pass through untouched.
  if (isPlainGraphQLError(err)) return err as GraphQLError;
  const original = unwrap(err);
  if (isPlainGraphQLError(original)) return original as GraphQLError;
  const { error, unexpected } = toDomainError(original);
  if (unexpected) log?.error({ err: original }, 'unexpected GraphQL resolver error');
  const retryAfter = Number(error.headers['retry-after']);
  return new GraphQLError(error.message, {
    extensions: {
      code: error.code ?? `HTTP_${error.status}`,
      status: error.status,
      ...error.details,
      ...(Number.isFinite(retryAfter) && error.headers['retry-after'] !== undefined ? { retryAfter } : {}),
    },
  });
}
