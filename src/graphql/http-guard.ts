import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { bodyParseError, errors, type DomainError } from '../errors/index.js';
import type { Logger } from '../lib/logger.js';
import { toGraphQLError } from './errors.js';

/** Media types a GraphQL request body may have here (GraphQL over HTTP: JSON only). */
const JSON_BODY = /^application\/(graphql(-response)?\+)?json$/i;

const mediaTypeOf = (req: IncomingMessage): string => String(req.headers['content-type'] ?? '').split(';')[0]!.trim();

/** An HTTP-level refusal of /graphql in the GraphQL shape: `{ errors: [{ message, extensions: { code, status } }] }`. */
function refuse(res: ServerResponse, error: DomainError, log: Logger): void {
  log.info({ status: error.status, reason: error.message }, 'GraphQL request refused');
  const body = JSON.stringify({ errors: [toGraphQLError(error, log).toJSON()] });
  res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * In front of yoga on /graphql and /graphql/stream (yoga reads its own bodies, before the REST JSON
 * parser): a POST must carry a JSON body (415 otherwise) of at most `bodyLimit` bytes (413), read here
 * with the same parser options as REST and handed to yoga as a buffer. Every refusal is a JSON body.
 */
export function graphqlHttpGuard(bodyLimit: string, log: Logger) {
  const readBody = express.raw({ type: () => true, limit: bodyLimit });
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (req.method !== 'POST') return next();
    if (!JSON_BODY.test(mediaTypeOf(req))) {
      return refuse(res, errors.unsupportedMediaType('Unsupported media type: send the GraphQL request as application/json'), log);
    }
    readBody(req as express.Request, res as express.Response, (err?: unknown) => {
      if (!err) {
        // The buffer handed to yoga is already inflated: its original encoding and length no longer apply.
        delete req.headers['content-encoding'];
        delete req.headers['content-length'];
        return next();
      }
      refuse(res, bodyParseError(err, 'Unreadable request body'), log);
    });
  };
}
