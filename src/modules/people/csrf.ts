import { errors } from '../../errors/index.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | null | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

/**
 * CSRF protection of cookie-authenticated writes (docs/people.md): a request whose method can change
 * something must carry an `Origin` (or, failing that, a `Referer`) equal to the service's own origin;
 * anything else, a missing header included, is 403 csrf_rejected. Safe methods pass. API-key requests
 * never come here.
 */
export function assertSameOrigin(request: { method: string; origin?: string | null; referer?: string | null }, own: string): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const from = originOf(request.origin) ?? originOf(request.referer);
  if (from !== own) throw errors.csrfRejected();
}
