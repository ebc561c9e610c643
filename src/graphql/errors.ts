import { GraphQLError } from 'graphql';
import { metrics } from '../lib/metrics.js';
import { graphqlError, toDomainError } from '../errors/index.js';
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
 * A GraphQL error that already carries its code: a request error coded by the GraphQL layer (yoga.ts
 * `badDocument`: variables that do not coerce to their types), whose `originalError` is only the scalar's
 * complaint; unwrapping it would lose the wording that names the variable, and the code.
 */
const isCodedGraphQLError = (err: unknown): boolean =>
  !!err && typeof err === 'object' && (err as Error).name === 'GraphQLError' && typeof (err as GraphQLError).extensions?.code === 'string';

/**
 * Anything a resolver threw becomes a GraphQL error in the shape of src/errors/render.ts
 * (`extensions.code`: the catalogue code; `status`, details, `retryAfter`).
 */
export function toGraphQLError(err: unknown, log?: Logger): GraphQLError {
  // Validation and syntax errors raised by GraphQL itself pass through untouched.
  if (isPlainGraphQLError(err) || isCodedGraphQLError(err)) return err as GraphQLError;
  const original = unwrap(err);
  if (isPlainGraphQLError(original)) return original as GraphQLError;
  const { error, unexpected } = toDomainError(original);
  if (unexpected) log?.error({ err: original }, 'unexpected GraphQL resolver error');
  metrics.refusal(error.status, error.code);
  return graphqlError(error);
}
