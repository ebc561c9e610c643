import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core';
import { ZodError } from 'zod';
import { DomainError, ErrorCode, errors, isDomainError } from './catalogue.js';

/**
 * The one place where errors that are not catalogue errors become catalogue errors: zod, MikroORM,
 * PostgreSQL's NUL refusal, and the module errors (ProviderError, OutboundUrlError, IngestionFailure;
 * TurnAborted, DocumentParseError and UnsupportedDocumentError already are catalogue errors). Module
 * errors are recognised by name and shape, so this file imports no module (no dependency circle).
 */

/** Names the field of the first zod issue, e.g. `options.maxTokens must be at most 4000`. */
export function zodToDomainError(err: ZodError): DomainError {
  const issue = err.issues[0];
  if (!issue) return errors.validation(null, 'Invalid request body');
  // A typed body that names a field it does not have (strict schemas): refused, naming that field.
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) return unknownFieldError(issue.path.map(String), issue.keys);
  const field = issue.path.map(String).join('.');
  const message = issue.message;
  if (!field) return errors.validation(null, message);
  // Messages set in schemas already name their field ("message is required").
  const text = message.startsWith(field) ? message : `${field}: ${message}`;
  return errors.validation(field, text);
}

/**
 * A typed body with a field it does not have (`keys`, under `path`): 400 naming the first, never dropped
 * in silence (docs/security.md, "Unknown fields").
 */
export function unknownFieldError(path: string[], keys: string[]): DomainError {
  const unknown = [...path, keys[0]!].join('.');
  return errors.validation(unknown, `${unknown} is not a field of this request`, { unknownFields: keys });
}

/**
 * The input a module error concerns, when the service knows it better than the error does: the wording
 * of a refused outbound URL names the field it came from.
 */
export type ErrorInput = 'webhook.url' | 'tool.urlTemplate';

const named = (err: unknown, name: string): err is Error & Record<string, unknown> => err instanceof Error && err.name === name;

const isZodError = (err: unknown): err is ZodError =>
  err instanceof ZodError || (named(err, 'ZodError') && Array.isArray((err as unknown as ZodError).issues));

function urlRefused(reason: string, input: ErrorInput | undefined): DomainError {
  if (input === 'tool.urlTemplate') return errors.urlRefused('urlTemplate', `urlTemplate refused: ${reason}`);
  if (input === 'webhook.url') return errors.urlRefused('url', `Invalid webhook url: ${reason}`, { reason });
  return errors.urlRefused('url', `URL refused: ${reason}`, { reason });
}

/** The catalogue error of a known error, or undefined. */
function known(err: unknown, input?: ErrorInput): DomainError | undefined {
  if (isDomainError(err)) return err;
  if (isZodError(err)) return zodToDomainError(err);
  if (err instanceof NotFoundError) return errors.notFound('record', null, 'Not found');
  if (err instanceof UniqueConstraintViolationException) return errors.alreadyExists();
  // OutboundUrlError (src/net): `reason` is safe to show to the user who supplied the URL.
  if (named(err, 'OutboundUrlError') && typeof err.reason === 'string') return urlRefused(err.reason, input);
  // IngestionFailure (knowledge): the parser's refusal when it came from one, else an unreadable document.
  if (named(err, 'IngestionFailure')) return isDomainError(err.cause) ? err.cause : errors.documentUnreadable(err.message);
  // A model call the caller's signal ended is an aborted turn, not a model failure.
  if (named(err, 'ProviderError') && err.aborted === true) return errors.turnAborted();
  // PostgreSQL text and jsonb cannot hold NUL characters: input carrying one is bad input, not a crash.
  if (err instanceof Error && /0x00|\\u0000|invalid byte sequence for encoding|invalid message format/i.test(err.message)) {
    return errors.validation(null, 'Input must not contain NUL characters');
  }
  return undefined;
}

/**
 * Turns anything thrown into a DomainError. Unknown errors, and model failures (ProviderError), become a
 * 500 whose message hides the internals; `unexpected` tells the adapter to log the original.
 */
export function toDomainError(err: unknown, input?: ErrorInput): { error: DomainError; unexpected: boolean } {
  const error = known(err, input);
  if (error) return { error, unexpected: false };
  if (named(err, 'ProviderError')) return { error: errors.internal('The model failed to answer'), unexpected: true };
  return { error: errors.internal(), unexpected: true };
}

/**
 * For a service that lets a module error through: the catalogue error when the error is known, else the
 * error itself (so the adapter logs the original and answers a generic 500).
 */
export function translated(err: unknown, input?: ErrorInput): unknown {
  return known(err, input) ?? err;
}

/** An aborted turn or call (the client left): nobody is left to answer. */
export const isAborted = (err: unknown): boolean => isDomainError(err) && err.code === ErrorCode.turnAborted;

/**
 * The request body could not be read (express.json, express.raw, express's own 4xx such as a broken
 * percent-encoding in the path): the catalogue error, or undefined for anything else (`unreadable`: the
 * message of any other failure of the reader). The one mapping
 * of body errors: REST answers it in the native shape, the gateway in its dialect, GraphQL as a GraphQL error.
 */
export function bodyParseError(err: unknown, unreadable: string): DomainError;
export function bodyParseError(err: unknown): DomainError | undefined;
export function bodyParseError(err: unknown, unreadable?: string): DomainError | undefined {
  const type = err && typeof err === 'object' ? (err as { type?: unknown }).type : undefined;
  if (type === 'entity.too.large') return errors.payloadTooLarge('Request body too large');
  if (type === 'entity.parse.failed') return errors.invalidBody('Malformed JSON body');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return errors.invalidBody('Unsupported body encoding');
  // A reader that fails for any other reason (the GraphQL guard) names the failure itself.
  if (unreadable !== undefined) return errors.invalidBody(unreadable);
  const status = err && typeof err === 'object' ? (err as { status?: unknown }).status : undefined;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return errors.payloadTooLarge('Request body too large');
    const malformedPath = err instanceof URIError || /decode/i.test(String((err as Error).message));
    return errors.invalidBody(malformedPath ? 'Malformed URL encoding in path' : 'Bad request');
  }
  return undefined;
}

/** A JSON body that is not an object (an array, a scalar) on a route reading one. */
export const notAnObjectBody = (): DomainError => errors.invalidBody('Request body must be a JSON object');

/**
 * A JSON body holding text that is not well-formed Unicode (a lone surrogate) at `path` (a key's path
 * ends with the key): it cannot be stored or compared as sent. 400 naming the field.
 */
export function illFormedTextError(path: string[]): DomainError {
  const field = path.join('.');
  const where = field ? field : 'The request body';
  return errors.validation(field || null, `${where} must be well-formed Unicode text (it holds a lone surrogate)`);
}
