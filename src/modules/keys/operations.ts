import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { KNOWN_SCOPES } from '../../core/scopes.js';

// The keys family's declared operations (issue 29 §1); the other key routes and fields are still on the
// list of those not converted yet (test/platform/operations.test.ts).

/** The scope names a key may hold (GraphQL `apiKeyScopes`): what the console offers when creating a key. */
export const listScopesOp = defineOperation({
  name: 'keys.scopes',
  needs: { scope: null },
  input: z.object({}),
  run: async () => [...KNOWN_SCOPES],
});
