import type { AppConfig } from '../config.js';
import type { CapabilityScope } from '../core/scopes.js';
import type { UserRole } from '../core/access.js';

/** A route-level ceiling of `config.routeRates` (SPEC Limits, request rate 2). */
export type CeilingName = keyof AppConfig['routeRates'];

/**
 * What one operation needs from the request pipeline, declared once where the operation is exposed:
 * on a REST route definition (`rest/route.ts`) or on a GraphQL root field (`operationNeeds()` in its
 * `extensions`). The pipeline reads it; the adapters never repeat it.
 */
export interface Needs {
  /**
   * Capability scope of the family (null: no capability scope opens it). Checked by the pipeline with
   * `write` (scope first, then read-only) and again by the use case's `authorize`. Left undefined,
   * only the use case checks.
   */
  scope?: CapabilityScope | null;
  /** The operation changes something (chatting counts): read-only keys are refused. */
  write?: boolean;
  /** The route-level ceiling the operation counts against, besides the key's `ratePerMinute`. */
  rateLimit?: CeilingName;
  /** Only signed-in people may perform it: an API key is refused with 403 person_required. */
  person?: boolean;
  /** The role a signed-in person needs (403 admin_required); docs/people.md has the matrix. */
  role?: UserRole;
}

/** One admitted unit of work: a REST request or a GraphQL root field. */
export interface Operation {
  /**
   * `METHOD /path` of the REST route; a GraphQL field twinned to a REST route names that route, so a
   * ceiling is one count across both APIs. Names the route-level bucket and the log lines.
   */
  name: string;
  needs: Needs;
}
