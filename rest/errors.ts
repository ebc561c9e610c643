import type { Response } from 'express';
import { renderError, toDomainError, type DomainError, type Dialect } from '../src/errors/index.js';
import type { Logger } from '../src/lib/logger.js';
import { metrics } from '../src/lib/metrics.js';

// The shapes themselves are chosen in src/errors/render.ts; REST only writes them.
export { anthropicBody, isAuthStage, nativeBody, openaiBody, type Dialect } from '../src/errors/index.js';

/** The body `dialect` gives an error (auth-stage errors stay native everywhere). */
export const errorBody = (e: DomainError, dialect: Dialect): Record<string, unknown> => renderError(e, dialect).body;

/** Renders anything thrown; unexpected errors are logged and become a generic 500. */
export function sendError(res: Response, err: unknown, dialect: Dialect, log: Logger): void {
  const { error, unexpected } = toDomainError(err);
  if (unexpected) log.error({ err }, 'unexpected error');
  if (res.headersSent) {
    res.end();
    return;
  }
  const { status, body, headers } = renderError(error, dialect);
  metrics.refusal(status, error.code);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(status).json(body);
}
