/**
 * Runs before every test file (vitest `setupFiles`). The test files share their worker's modules
 * (`isolate: false` in vitest.config.ts): this puts back, for each file, the module-level state that a
 * fresh module graph would have, so that no file sees what an earlier one left.
 *
 * Module-level mutable state in src/ and rest/ (every top-level `let`, every top-level collection or
 * instance, every top-level call; listed in docs/decisions.md, "Test suite duration") is either reset here
 * or the same whatever ran before:
 * - reset: rest/route.ts `routeRegistry` (what /openapi.json lists: test-only routes mounted by one file
 *   must not show in another's document), the Prometheus counters and histograms of src/lib/metrics.ts
 *   `instruments` (a file reads the counts of its own apps);
 * - the same for every file: caches of pure functions (tokenizer, stemmer and WordNet memos, the key
 *   lookup's SQL text, the GraphQL schema and its zod-derived types, compiled tool schemas keyed by
 *   entity), id generators that only need to stay monotonic, the entity classes bound at import, the
 *   PGlite data-directory locks (released on close).
 * In test/support: the OpenAPI documents cached by base URL (a later app may get the same port) and the
 * mismatch list are reset; the rest are counters for unique names and the PostgreSQL reachability probe.
 */
import { beforeAll } from 'vitest';
import { routeRegistry } from '../../rest/route.js';
import { instruments } from '../../src/lib/metrics.js';
import { resetOpenApiValidation } from './openapi-validation.js';

beforeAll(() => {
  routeRegistry.length = 0;
  instruments.resetMetrics();
  resetOpenApiValidation();
});
