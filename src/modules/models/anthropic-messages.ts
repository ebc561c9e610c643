import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, CompletionResult, ToolCall, ToolDef } from './provider.js';

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;

export interface AnthropicPrompt {
  system: string;
  messages: MessageParam[];
}

/**
 * Our messages in the Messages API shape: system messages join the top-level `system`, tool
 * results become `tool_result` blocks of a user turn, tool calls `tool_use` blocks, and
 * consecutive messages of the same side merge into one turn (the API wants them alternating).
 */
export function toAnthropicPrompt(messages: ChatMessage[]): AnthropicPrompt {
  const system: string[] = [];
  const turns: { role: 'user' | 'assistant'; blocks: ContentBlockParam[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') {
      if (m.content) system.push(m.content);
    } else if (m.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content }]);
    } else if (m.role === 'user') {
      push('user', textBlocks(m.content));
    } else {
      const uses = (m.toolCalls ?? []).map(
        (c): ContentBlockParam => ({ type: 'tool_use', id: c.id, name: c.name, input: parseArguments(c.arguments) }),
      );
      push('assistant', [...textBlocks(m.content), ...uses]);
    }
  }
  return { system: system.join('\n\n'), messages: turns.map((t) => ({ role: t.role, content: t.blocks })) };
}

export function toAnthropicTools(tools: ToolDef[]): Anthropic.Messages.Tool[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { ...t.parameters, type: 'object' },
  }));
}

export function toolCallOf(id: string, name: string, input: unknown): ToolCall {
  return { id, name, arguments: typeof input === 'string' ? input : JSON.stringify(input ?? {}) };
}

export function finishOf(reason: string | null, toolCalls: ToolCall[]): CompletionResult['finishReason'] {
  if (toolCalls.length > 0) return 'tool_calls';
  return reason === 'max_tokens' ? 'length' : 'stop';
}

/** The API rejects empty text blocks. */
function textBlocks(text: string): ContentBlockParam[] {
  return text.trim() ? [{ type: 'text', text }] : [];
}

function parseArguments(args: string): unknown {
  try {
    return JSON.parse(args || '{}');
  } catch {
    return {};
  }
}
