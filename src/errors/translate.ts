import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core';
import { ZodError } from 'zod';
import { DomainError, errors, isDomainError } from './catalogue.js';

/** Names the field of the first zod issue, e.g. `options.maxTokens must be at most 4000`. */
export function zodToDomainError(err: ZodError): DomainError {
  const issue = err.issues[0];
  if (!issue) return errors.badRequest('Invalid request body');
  const field = issue.path.map(String).join('.');
  const message = issue.message;
  if (!field) return errors.badRequest(message);
  // Messages set in schemas already name their field ("message is required").
  const text = message.startsWith(field) ? message : `${field}: ${message}`;
  return errors.badRequest(text, { field });
}

/** Turns anything thrown into a DomainError; unknown errors become a generic 500. */
export function toDomainError(err: unknown): { error: DomainError; unexpected: boolean } {
  if (isDomainError(err)) return { error: err, unexpected: false };
  if (err instanceof ZodError || (err instanceof Error && err.name === 'ZodError' && Array.isArray((err as ZodError).issues))) return { error: zodToDomainError(err as ZodError), unexpected: false };
  if (err instanceof NotFoundError) return { error: errors.notFound('Not found'), unexpected: false };
  if (err instanceof UniqueConstraintViolationException) {
    return { error: errors.badRequest('A record with the same unique value already exists'), unexpected: false };
  }
  // PostgreSQL text and jsonb cannot hold NUL characters: input carrying one is bad input, not a crash.
  if (err instanceof Error && /0x00|\\u0000|invalid byte sequence for encoding|invalid message format/i.test(err.message)) {
    return { error: errors.badRequest('Input must not contain NUL characters'), unexpected: false };
  }
  return { error: errors.internal(), unexpected: true };
}
