import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { Deps } from '../core/deps.js';
import { bodyParseError, errors, type DomainError } from '../errors/index.js';
import type { Logger } from '../lib/logger.js';
import { isTrustedOrigin } from '../modules/people/index.js';
import { toGraphQLError } from './errors.js';
import { operationKind } from './operation-kind.js';

/** Media types a GraphQL request body may have here (GraphQL over HTTP: JSON only). */
const JSON_BODY = /^application\/(graphql(-response)?\+)?json$/i;

const mediaTypeOf = (req: IncomingMessage): string => String(req.headers['content-type'] ?? '').split(';')[0]!.trim();

/** Methods of GraphQL over HTTP and of the graphql-sse protocol (PUT reserves, DELETE stops a stream). */
const CORS_METHODS = 'GET, POST, PUT, DELETE';
const CORS_HEADERS = 'authorization, x-api-key, content-type, accept, x-graphql-event-stream-token';

/** An HTTP-level refusal of /graphql in the GraphQL shape: `{ errors: [{ message, extensions: { code, status } }] }`. */
function refuse(res: ServerResponse, error: DomainError, log: Logger): void {
  log.info({ status: error.status, reason: error.message }, 'GraphQL request refused');
  const body = JSON.stringify({ errors: [toGraphQLError(error, log).toJSON()] });
  res.writeHead(error.status, {
    ...error.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * CORS (docs/security.md): a trusted origin — the console's own, or one of SVC_CORS_ORIGINS — gets
 * `access-control-allow-origin` with credentials; any other origin gets no CORS header at all, so its
 * pages can neither read an answer nor send a preflighted request. Returns whether the origin is trusted.
 */
function answerCors(app: Deps, req: express.Request, res: ServerResponse): boolean {
  res.setHeader('vary', 'Origin');
  const origin = req.headers.origin;
  if (!origin || !isTrustedOrigin(app, `${req.protocol}://${req.get('host') ?? 'localhost'}`, origin)) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-allow-credentials', 'true');
  return true;
}

/** A JSON parameter of a GET request (`variables`, `extensions`): absent, or a JSON object. */
function jsonParameterError(params: URLSearchParams, name: string): DomainError | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return errors.validation(name, `${name} must be a JSON object (it is not valid JSON)`);
  }
  if (value !== null && (typeof value !== 'object' || Array.isArray(value))) return errors.validation(name, `${name} must be a JSON object`);
  return undefined;
}

/**
 * A GraphQL request over GET (GraphQL over HTTP): its JSON parameters must parse (400 validation_failed
 * naming the parameter), and it may only ask for a query — a mutation, or a subscription (which starts
 * a chat turn or a debate), is 405 method_not_allowed with `allow: POST`. A document that does not
 * parse is left to yoga, which refuses it with its own code.
 */
function getRequestError(req: IncomingMessage): DomainError | undefined {
  const params = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
  for (const name of ['variables', 'extensions']) {
    const error = jsonParameterError(params, name);
    if (error) return error;
  }
  const query = params.get('query');
  if (query === null) return undefined;
  const kind = operationKind({ query, operationName: params.get('operationName') });
  if (kind && kind !== 'query') {
    return errors.methodNotAllowed('POST', `A ${kind} cannot be sent over GET: GET is for queries; send it as a POST`);
  }
  return undefined;
}

/**
 * In front of yoga on /graphql and /graphql/stream (yoga reads its own bodies, before the REST JSON
 * parser): CORS for trusted origins only (the preflight answered here); a GET asks for a query only,
 * with parameters that parse; a POST must carry a JSON body (415 otherwise) of at most `bodyLimit`
 * bytes (413), read here with the same parser options as REST and handed to yoga as a buffer. Every
 * refusal is a GraphQL-shaped JSON body.
 */
export function graphqlHttpGuard(app: Deps) {
  const log = app.log;
  const readBody = express.raw({ type: () => true, limit: app.config.bodyLimit });
  return (incoming: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const req = incoming as express.Request;
    const trusted = answerCors(app, req, res);
    if (req.method === 'OPTIONS') {
      if (trusted) {
        res.setHeader('access-control-allow-methods', CORS_METHODS);
        res.setHeader('access-control-allow-headers', CORS_HEADERS);
        res.setHeader('access-control-max-age', '600');
      }
      res.writeHead(204, { 'content-length': '0' });
      res.end();
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const error = getRequestError(req);
      return error ? refuse(res, error, log) : next();
    }
    if (req.method !== 'POST') return next();
    if (!JSON_BODY.test(mediaTypeOf(req))) {
      return refuse(res, errors.unsupportedMediaType('Unsupported media type: send the GraphQL request as application/json'), log);
    }
    readBody(req, res as express.Response, (err?: unknown) => {
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
