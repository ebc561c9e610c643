import { errors } from '../../errors/index.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the cross-site check reads of a request authenticated by the session cookie. */
export interface CrossSiteFacts {
  method: string;
  origin?: string | null;
  referer?: string | null;
  /**
   * On GraphQL, the kind of the operation asked for (whatever the HTTP method): only a `query` is
   * read-only. Elsewhere the method decides (GET, HEAD and OPTIONS are read-only).
   */
  operation?: () => 'query' | 'mutation' | 'subscription' | undefined;
}

/** The origin a header names; `null` when the header is there but names none (`Origin: null`, garbage). */
function originOf(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

const readOnly = (request: CrossSiteFacts): boolean =>
  request.operation ? request.operation() === 'query' : SAFE_METHODS.has(request.method.toUpperCase());

/**
 * CSRF protection of every request authenticated by the session cookie (docs/security.md), whatever
 * its method: the `Origin` (or, failing that, the `Referer`) must be one of the trusted origins — the
 * service's own and SVC_CORS_ORIGINS —, else 403 csrf_rejected. A request with neither header (a
 * top-level navigation, an image, a client that is not a browser) passes only when it is read-only: a
 * GraphQL query, or a GET. API-key requests never come here.
 */
export function assertSameOrigin(request: CrossSiteFacts, trusted: (origin: string) => boolean): void {
  const from = request.origin ? originOf(request.origin) : originOf(request.referer);
  if (from === undefined) {
    if (readOnly(request)) return;
    throw errors.csrfRejected();
  }
  if (from === null || !trusted(from)) throw errors.csrfRejected();
}
