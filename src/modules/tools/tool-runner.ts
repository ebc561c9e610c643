import type { ToolRunner } from '../chat/index.js';
import { executeTool } from './tool-call.js';
import { agentTools, toolsByIds } from './tools.service.js';

/**
 * The chat turn's tools: the agent's linked tools that are active, restricted to `toolIds` when the
 * request names a subset (ids not linked to the agent are ignored). Each is offered to the model as a
 * function tool named after the tool, with its input schema; running it never throws.
 */
export const createToolRunner = (): ToolRunner => ({
  async toolsFor(ctx, { agentId, toolIds, linked }) {
    const wanted = toolIds ? new Set(toolIds) : null;
    const all = linked ? await toolsByIds(ctx, linked.filter((id) => !wanted || wanted.has(id))) : await agentTools(ctx, agentId);
    const tools = all.filter((t) => t.isActive && (!wanted || wanted.has(t.id)));
    return tools.map((tool) => ({
      def: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      async run(args: unknown, signal?: AbortSignal) {
        const { success, result } = await executeTool(ctx.app, tool, args, signal ?? ctx.signal);
        return { success, result };
      },
    }));
  },
});
