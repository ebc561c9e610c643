import { errors } from '../../errors/index.js';
import { jsonFromAnswer } from '../models/index.js';
import type { GatewayCall, Target } from './gateway-call.js';

/**
 * What the answering model cannot honour is refused (400 `invalid_request_error` in the dialect's
 * shape) before any model runs, instead of being dropped silently:
 * - a tool choice that forces a call (`required` / `any` / a named tool) on a target that never sees
 *   the caller's tools: an agent address (it runs the workspace's tools) or a model that takes none
 *   (the built-in local model);
 * - a structured-output schema the local model or an agent cannot fill (their JSON is cast from a
 *   text answer: `structured-output.ts`), e.g. one with a `pattern`.
 */
export function assertHonoured(call: GatewayCall, target: Target): void {
  if (call.toolChoice) {
    if (target.kind === 'agent') {
      throw errors.validation(
        'tool_choice',
        'An agent address calls the workspace\'s tools, never the caller\'s: a tool_choice that forces a tool call cannot be honoured',
      );
    }
    if (!target.toolsForwarded) {
      throw errors.validation(
        'tool_choice',
        `The answering model (${target.provider.model}) takes no tools: a tool_choice that forces a tool call cannot be honoured`,
      );
    }
  }
  const format = call.generation?.responseFormat;
  if (format && (target.kind === 'agent' || target.provider.local)) jsonFromAnswer('', format, call.formatField);
}
