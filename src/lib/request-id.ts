import { randomUUID } from 'node:crypto';

/** The header that carries a request's id, in and out (docs/operations.md, "Request ids"). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The same id under the name the official Anthropic client reads (`message._request_id`,
 * `APIError.requestID`); the OpenAI client reads `x-request-id`.
 */
export const ANTHROPIC_REQUEST_ID_HEADER = 'request-id';

/**
 * An inbound id is kept when it is one visible token of at most 128 characters (letters, digits and
 * `. _ : + / = ~ -`, as UUIDs, ULIDs and load balancers' trace ids are); anything else (empty, longer,
 * spaces, quotes, control characters, repeated headers) is replaced, so a log line or a stored row never
 * carries what a client chose to inject.
 */
const WELL_FORMED = /^[A-Za-z0-9._:+/=~-]{1,128}$/;

export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && WELL_FORMED.test(value);
}

/** The request's id: the inbound one when well-formed, else a new UUID. */
export function requestIdFrom(inbound: unknown): string {
  return isWellFormedRequestId(inbound) ? inbound : randomUUID();
}
