import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { ask, askWeb } from './light.service.js';

// The light family's use cases (issue 29 §1): rest/light/light.routes.ts, light.graphql.ts and the MCP
// tool service_ask refer to these. Questions change nothing stored but consume questions: a read-only
// key is refused, as for chat. The body is parsed by the service with its module schema.
const ASK = { scope: 'light', write: true } as const;
const Body = z.object({ body: z.unknown() });

export const askOp = defineOperation({
  name: 'light.ask',
  route: 'POST /light/ask',
  needs: ASK,
  input: Body,
  run: (ctx, { body }) => ask(ctx, body),
});

export const askWebOp = defineOperation({
  name: 'light.web',
  route: 'POST /light/web',
  needs: ASK,
  input: Body,
  run: (ctx, { body }) => askWeb(ctx, body),
});
