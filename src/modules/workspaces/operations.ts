import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';

// The workspaces module's use case (issue 29 §1): `Query.viewer` refers to it.

/** Who am I: the caller's workspace, user and key, answered to every authenticated caller, restricted keys included. */
export const viewerOp = defineOperation({
  name: 'workspaces.viewer',
  needs: { scope: null, anyCaller: true },
  input: z.object({}),
  run: async (ctx) => ctx.caller,
});
