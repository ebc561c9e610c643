import { z } from 'zod';

/**
 * Wire schemas of the two dialects. Objects are loose: official clients send fields this gateway
 * does not use (`user`, `metadata`, `seed`...), and those must not be refused.
 */

const text = z.object({ type: z.literal('text'), text: z.string() }).loose();

// ---- OpenAI Chat Completions ----

const OpenAIContent = z.union([z.string(), z.array(text, { error: 'only text content parts are supported' }), z.null()]);

const OpenAIToolCall = z
  .object({
    id: z.string(),
    type: z.literal('function').optional(),
    function: z.object({ name: z.string(), arguments: z.string() }).loose(),
  })
  .loose();

export const OpenAIMessageSchema = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.enum(['system', 'developer']), content: OpenAIContent, name: z.string().optional() }).loose(),
    z.object({ role: z.literal('user'), content: OpenAIContent, name: z.string().optional() }).loose(),
    z
      .object({
        role: z.literal('assistant'),
        content: OpenAIContent.optional(),
        name: z.string().optional(),
        tool_calls: z.array(OpenAIToolCall).optional(),
      })
      .loose(),
    z.object({ role: z.literal('tool'), content: OpenAIContent, tool_call_id: z.string() }).loose(),
  ],
  { error: 'role must be one of system, developer, user, assistant, tool' },
);
export type OpenAIMessage = z.infer<typeof OpenAIMessageSchema>;

const OpenAITool = z
  .object({
    type: z.literal('function'),
    function: z
      .object({
        name: z.string().min(1),
        description: z.string().optional(),
        parameters: z.record(z.string(), z.unknown()).optional(),
      })
      .loose(),
  })
  .loose();

const OpenAIToolChoice = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }).loose() }).loose(),
  ],
  { error: 'tool_choice must be "none", "auto", "required" or { "type": "function", "function": { "name" } }' },
);

export const OpenAIChatRequestSchema = z
  .object({
    model: z.string({ error: 'model is required' }).min(1, 'model is required'),
    messages: z.array(OpenAIMessageSchema, { error: 'messages is required' }).min(1, 'messages must not be empty'),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullish(),
    tools: z.array(OpenAITool).nullish(),
    tool_choice: OpenAIToolChoice.nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    max_tokens: z.number().int().positive().nullish(),
    max_completion_tokens: z.number().int().positive().nullish(),
    n: z.literal(1, { error: 'only n = 1 is supported' }).nullish(),
  })
  .loose();
export type OpenAIChatRequest = z.infer<typeof OpenAIChatRequestSchema>;

// ---- Anthropic Messages ----

const AnthropicToolResultContent = z.union([z.string(), z.array(text, { error: 'only text blocks are supported in tool results' })]);

const AnthropicBlock = z.discriminatedUnion(
  'type',
  [
    text,
    z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }).loose(),
    z
      .object({
        type: z.literal('tool_result'),
        tool_use_id: z.string(),
        content: AnthropicToolResultContent.optional(),
        is_error: z.boolean().optional(),
      })
      .loose(),
  ],
  { error: 'only text, tool_use and tool_result content blocks are supported' },
);
export type AnthropicBlock = z.infer<typeof AnthropicBlock>;

export const AnthropicMessageSchema = z
  .object({
    role: z.enum(['user', 'assistant'], { error: 'role must be user or assistant' }),
    content: z.union([z.string(), z.array(AnthropicBlock)]),
  })
  .loose();
export type AnthropicMessage = z.infer<typeof AnthropicMessageSchema>;

const AnthropicTool = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    input_schema: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

const AnthropicToolChoice = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.enum(['auto', 'any', 'none']) }).loose(),
    z.object({ type: z.literal('tool'), name: z.string().min(1) }).loose(),
  ],
  { error: 'tool_choice type must be auto, any, none or tool' },
);

const AnthropicBase = {
  model: z.string({ error: 'model is required' }).min(1, 'model is required'),
  messages: z.array(AnthropicMessageSchema, { error: 'messages is required' }).min(1, 'messages must not be empty'),
  system: z.union([z.string(), z.array(text)]).optional(),
  tools: z.array(AnthropicTool).optional(),
  tool_choice: AnthropicToolChoice.optional(),
};

export const AnthropicMessagesRequestSchema = z
  .object({
    ...AnthropicBase,
    max_tokens: z.number().int().positive().optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
  })
  .loose();
export type AnthropicMessagesRequest = z.infer<typeof AnthropicMessagesRequestSchema>;

export const AnthropicCountTokensRequestSchema = z.object(AnthropicBase).loose();
export type AnthropicCountTokensRequest = z.infer<typeof AnthropicCountTokensRequestSchema>;

// ---- responses (documentation in /openapi.json) ----

const OpenAIUsage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() });

export const OpenAIChatResponseSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(OpenAIToolCall).optional() }),
      finish_reason: z.enum(['stop', 'length', 'tool_calls']),
    }),
  ),
  usage: OpenAIUsage,
});

export const AnthropicMessageResponseSchema = z.object({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(z.unknown()),
  stop_reason: z.enum(['end_turn', 'max_tokens', 'tool_use']),
  stop_sequence: z.null(),
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
});

export const ModelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() })),
});

export const OpenAIErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), code: z.string().nullable(), param: z.string().nullable() }),
});
export const AnthropicErrorSchema = z.object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string() }) });
