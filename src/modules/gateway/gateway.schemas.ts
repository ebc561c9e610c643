import { z } from 'zod';
import { maxJsonDepth } from '../../lib/json-depth.js';

/**
 * Size limits of a gateway call (docs/operations.md): each text (a message's content, a content block,
 * the system prompt, a tool result) up to `textChars`, the tool definitions bounded in number, size and
 * depth. The JSON body limit (SVC_BODY_LIMIT, 1 MB) bounds the whole call before any of these.
 */
export const GATEWAY_LIMITS = {
  textChars: 500_000,
  messages: 2_000,
  tools: 128,
  toolNameChars: 64,
  toolDescriptionChars: 16_000,
} as const;

const boundedText = z.string().max(GATEWAY_LIMITS.textChars, `must be at most ${GATEWAY_LIMITS.textChars} characters`);
const toolName = z.string().min(1).max(GATEWAY_LIMITS.toolNameChars, `must be at most ${GATEWAY_LIMITS.toolNameChars} characters`);
const toolDescription = z.string().max(GATEWAY_LIMITS.toolDescriptionChars, `must be at most ${GATEWAY_LIMITS.toolDescriptionChars} characters`);
/** A tool's JSON Schema (OpenAI `parameters`, Anthropic `input_schema`) or a tool call's input. */
const toolSchema = (field: string) => maxJsonDepth(z.record(z.string(), z.unknown()), field);

/**
 * Wire schemas of the two dialects. Objects are loose: official clients send fields this gateway
 * does not use (`user`, `metadata`, `seed`...), and those must not be refused.
 */

const text = z.object({ type: z.literal('text'), text: boundedText }).loose();

// ---- OpenAI Chat Completions ----

const OpenAIContentPart = z.discriminatedUnion(
  'type',
  [
    text,
    // An assistant message replayed with its refusal: the refusal is its text.
    z.object({ type: z.literal('refusal'), refusal: boundedText }).loose(),
  ],
  { error: 'only text and refusal content parts are supported' },
);
export type OpenAIContentPart = z.infer<typeof OpenAIContentPart>;
const OpenAIContent = z.union([boundedText, z.array(OpenAIContentPart), z.null()]);

const OpenAIToolCall = z
  .object({
    id: z.string(),
    type: z.literal('function', { error: 'only function tool calls are supported (custom tool calls are not)' }).optional(),
    function: z.object({ name: z.string(), arguments: boundedText }).loose(),
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
        /** The deprecated function calling: one call, answered by a `function` message. */
        function_call: z.object({ name: z.string().min(1), arguments: boundedText }).loose().nullish(),
      })
      .loose(),
    z.object({ role: z.literal('tool'), content: OpenAIContent, tool_call_id: z.string() }).loose(),
    z.object({ role: z.literal('function'), content: OpenAIContent, name: z.string().min(1) }).loose(),
  ],
  { error: 'role must be one of system, developer, user, assistant, tool, function' },
);
export type OpenAIMessage = z.infer<typeof OpenAIMessageSchema>;

const OpenAIFunction = z
  .object({
    name: toolName,
    description: toolDescription.optional(),
    parameters: toolSchema('parameters').optional(),
  })
  .loose();

const OpenAITool = z
  .object({
    type: z.literal('function', { error: 'only function tools are supported (custom tools are not)' }),
    function: OpenAIFunction,
  })
  .loose();

/** `allowed_tools.mode`: `auto` lets the model choose among the allowed tools, `required` makes it call one. */
const AllowedToolsMode = z.enum(['auto', 'required'], { error: 'mode must be "auto" or "required"' });

const OpenAIToolChoice = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }).loose() }).loose(),
    z
      .object({
        type: z.literal('allowed_tools'),
        allowed_tools: z.object({ mode: AllowedToolsMode, tools: z.array(z.object({ function: z.object({ name: z.string() }).loose().optional() }).loose()).max(GATEWAY_LIMITS.tools) }).loose(),
      })
      .loose(),
  ],
  {
    error:
      'tool_choice must be "none", "auto", "required", { "type": "function", "function": { "name" } } or { "type": "allowed_tools", "allowed_tools": { "mode", "tools" } }: custom tools are not supported',
  },
);

/** A structured-output JSON Schema (bounded in depth like tool schemas). */
const formatSchema = (field: string) => maxJsonDepth(z.record(z.string(), z.unknown()), field);
const formatName = z.string().min(1).max(64, 'must be at most 64 characters').regex(/^[A-Za-z0-9_-]+$/, 'must hold only letters, digits, _ and -');
const stopList = z.union([z.string(), z.array(z.string()).max(4, 'at most 4 stop sequences')]);
const userId = z.string().max(256, 'must be at most 256 characters');
const metadata = z.record(z.string().max(64), z.string().max(512));
/**
 * An enumerated setting the official clients send (reasoning effort, verbosity, service tier,
 * modalities, `include`...). Any short token is accepted, so a value a newer client adds is never a
 * 400 of this gateway's making (issue 31); each provider forwards, maps or drops it as docs/gateway.md
 * ("Request fields") says. Only a malformed value is refused: not a string, empty, too long, or with
 * characters no enumerated value has.
 */
export const settingToken = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must hold only letters, digits and _ . : -');
export const ReasoningEffort = settingToken;

/** OpenAI `response_format`. */
export const OpenAIResponseFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }).loose(),
    z.object({ type: z.literal('json_object') }).loose(),
    z
      .object({
        type: z.literal('json_schema'),
        json_schema: z
          .object({
            name: formatName,
            description: z.string().max(16_000).optional(),
            schema: formatSchema('schema').optional(),
            strict: z.boolean().nullish(),
          })
          .loose(),
      })
      .loose(),
  ],
  { error: 'response_format type must be text, json_object or json_schema' },
);
export type OpenAIResponseFormat = z.infer<typeof OpenAIResponseFormat>;

export const OpenAIChatRequestSchema = z
  .object({
    model: z.string({ error: 'model is required' }).min(1, 'model is required'),
    messages: z
      .array(OpenAIMessageSchema, { error: 'messages is required' })
      .min(1, 'messages must not be empty')
      .max(GATEWAY_LIMITS.messages, `messages must hold at most ${GATEWAY_LIMITS.messages} messages`),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullish(),
    tools: z.array(OpenAITool).max(GATEWAY_LIMITS.tools, `tools must hold at most ${GATEWAY_LIMITS.tools} tools`).nullish(),
    tool_choice: OpenAIToolChoice.nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    max_tokens: z.number().int().positive().nullish(),
    max_completion_tokens: z.number().int().positive().nullish(),
    n: z.literal(1, { error: 'n > 1 is not supported: the gateway answers one choice per call (omit n or send 1)' }).nullish(),
    response_format: OpenAIResponseFormat.nullish(),
    stop: stopList.nullish(),
    seed: z.number().int().nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    user: userId.nullish(),
    metadata: metadata.nullish(),
    reasoning_effort: ReasoningEffort.nullish(),
    verbosity: settingToken.nullish(),
    service_tier: settingToken.nullish(),
    modalities: z.array(settingToken).max(8).nullish(),
    prompt_cache_key: z.string().max(1024).nullish(),
    prompt_cache_retention: settingToken.nullish(),
    /** The deprecated function calling, read as `tools` / `tool_choice` when those are absent. */
    functions: z.array(OpenAIFunction).max(GATEWAY_LIMITS.tools, `functions must hold at most ${GATEWAY_LIMITS.tools} functions`).nullish(),
    function_call: z
      .union([z.enum(['none', 'auto']), z.object({ name: z.string().min(1) }).loose()], {
        error: 'function_call must be "none", "auto" or { "name" }',
      })
      .nullish(),
  })
  .loose();
export type OpenAIChatRequest = z.infer<typeof OpenAIChatRequestSchema>;

// ---- Anthropic Messages ----

const AnthropicToolResultContent = z.union([
  boundedText,
  z.array(z.discriminatedUnion('type', [text], { error: 'only text blocks are supported in tool results' })),
]);

const AnthropicBlock = z.discriminatedUnion(
  'type',
  [
    text,
    z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: maxJsonDepth(z.unknown(), 'input') }).loose(),
    z
      .object({
        type: z.literal('tool_result'),
        tool_use_id: z.string(),
        content: AnthropicToolResultContent.optional(),
        is_error: z.boolean().optional(),
      })
      .loose(),
    // A conversation replayed with thinking on: the model's thinking carries nothing a provider takes back.
    z.object({ type: z.literal('thinking') }).loose(),
    z.object({ type: z.literal('redacted_thinking') }).loose(),
  ],
  { error: 'only text, tool_use, tool_result, thinking and redacted_thinking content blocks are supported' },
);
export type AnthropicBlock = z.infer<typeof AnthropicBlock>;

export const AnthropicMessageSchema = z
  .object({
    role: z.enum(['user', 'assistant', 'system'], { error: 'role must be user, assistant or system' }),
    content: z.union([boundedText, z.array(AnthropicBlock)]),
  })
  .loose();
export type AnthropicMessage = z.infer<typeof AnthropicMessageSchema>;

const AnthropicTool = z
  .object({
    name: toolName,
    description: toolDescription.optional(),
    input_schema: toolSchema('input_schema').optional(),
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
  messages: z
    .array(AnthropicMessageSchema, { error: 'messages is required' })
    .min(1, 'messages must not be empty')
    .max(GATEWAY_LIMITS.messages, `messages must hold at most ${GATEWAY_LIMITS.messages} messages`),
  system: z.union([boundedText, z.array(text)]).optional(),
  tools: z.array(AnthropicTool).max(GATEWAY_LIMITS.tools, `tools must hold at most ${GATEWAY_LIMITS.tools} tools`).optional(),
  tool_choice: AnthropicToolChoice.optional(),
};

/**
 * `thinking`: `enabled` needs `budget_tokens` (>= 1024); any other type (`disabled`, `adaptive`,
 * `between_tools`, one a newer SDK adds) is forwarded to an Anthropic model as sent.
 */
const AnthropicThinking = z
  .object({
    type: settingToken,
    budget_tokens: z.number().int().min(1024, 'budget_tokens must be at least 1024').optional(),
    display: settingToken.nullish(),
  })
  .loose()
  .refine((t) => t.type !== 'enabled' || t.budget_tokens !== undefined, { message: 'budget_tokens is required when thinking is enabled', path: ['budget_tokens'] });

export const AnthropicMessagesRequestSchema = z
  .object({
    ...AnthropicBase,
    max_tokens: z.number().int().positive().optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().positive().optional(),
    stop_sequences: z.array(z.string()).max(16, 'at most 16 stop sequences').optional(),
    metadata: z.object({ user_id: userId.nullish() }).loose().optional(),
    thinking: AnthropicThinking.optional(),
    output_config: z
      .object({
        format: z.object({ type: z.literal('json_schema', { error: 'format type must be json_schema' }), schema: formatSchema('schema') }).loose().nullish(),
        effort: settingToken.nullish(),
      })
      .loose()
      .optional(),
    service_tier: settingToken.optional(),
    speed: settingToken.nullish(),
  })
  .loose();
export type AnthropicMessagesRequest = z.infer<typeof AnthropicMessagesRequestSchema>;

export const AnthropicCountTokensRequestSchema = z.object(AnthropicBase).loose();
export type AnthropicCountTokensRequest = z.infer<typeof AnthropicCountTokensRequestSchema>;

// ---- OpenAI Responses ----

const ResponsesText = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.enum(['input_text', 'output_text']), text: boundedText }).loose(),
    // An assistant message replayed with its refusal: the refusal is its text.
    z.object({ type: z.literal('refusal'), refusal: boundedText }).loose(),
  ],
  { error: 'only input_text, output_text and refusal content parts are supported' },
);
export type ResponsesText = z.infer<typeof ResponsesText>;

const ResponsesMessageItem = z
  .object({
    type: z.literal('message'),
    role: z.enum(['user', 'system', 'developer', 'assistant'], { error: 'role must be one of user, system, developer, assistant' }),
    content: z.union([boundedText, z.array(ResponsesText)]),
  })
  .loose();

const ResponsesInputItemUnion = z.discriminatedUnion(
  'type',
  [
    ResponsesMessageItem,
    z.object({ type: z.literal('function_call'), call_id: z.string().min(1), name: z.string().min(1), arguments: boundedText }).loose(),
    z
      .object({
        type: z.literal('function_call_output'),
        call_id: z.string().min(1),
        output: z.union([boundedText, z.array(ResponsesText)], { error: 'only text tool outputs are supported' }),
      })
      .loose(),
    z.object({ type: z.literal('reasoning') }).loose(),
    z.object({ type: z.literal('item_reference'), id: z.string() }).loose(),
  ],
  { error: 'input items must be messages, function_call, function_call_output or reasoning items: built-in, MCP and custom tool items are not supported' },
);

/** A message item may leave out `type` (the SDKs' "easy input message"). */
export const ResponsesInputItem = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && !('type' in v) && 'role' in v ? { ...v, type: 'message' } : v),
  ResponsesInputItemUnion,
);
export type ResponsesInputItem = z.infer<typeof ResponsesInputItemUnion>;

const ResponsesTool = z
  .object(
    {
      type: z.literal('function', { error: 'only function tools are supported' }),
      name: toolName,
      description: toolDescription.nullish(),
      parameters: toolSchema('parameters').nullish(),
      strict: z.boolean().nullish(),
    },
  )
  .loose();

const ResponsesToolChoice = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.object({ type: z.literal('function'), name: z.string().min(1) }).loose(),
    z
      .object({
        type: z.literal('allowed_tools'),
        mode: AllowedToolsMode,
        tools: z.array(z.object({ name: z.string().optional() }).loose()).max(GATEWAY_LIMITS.tools),
      })
      .loose(),
  ],
  {
    error:
      'tool_choice must be "none", "auto", "required", { "type": "function", "name" } or { "type": "allowed_tools", "mode", "tools" }: built-in, MCP and custom tools are not supported',
  },
);

/** `text.format`: the Responses API's flattened `response_format`. */
export const ResponsesTextFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }).loose(),
    z.object({ type: z.literal('json_object') }).loose(),
    z
      .object({
        type: z.literal('json_schema'),
        name: formatName,
        description: z.string().max(16_000).nullish(),
        schema: formatSchema('schema'),
        strict: z.boolean().nullish(),
      })
      .loose(),
  ],
  { error: 'text.format type must be text, json_object or json_schema' },
);

export const ResponsesRequestSchema = z
  .object({
    model: z.string({ error: 'model is required' }).min(1, 'model is required'),
    input: z.union([
      boundedText,
      z
        .array(ResponsesInputItem)
        .min(1, 'input must not be empty')
        .max(GATEWAY_LIMITS.messages, `input must hold at most ${GATEWAY_LIMITS.messages} items`),
    ], { error: 'input must be a string or a list of input items' }),
    instructions: boundedText.nullish(),
    tools: z.array(ResponsesTool).max(GATEWAY_LIMITS.tools, `tools must hold at most ${GATEWAY_LIMITS.tools} tools`).nullish(),
    tool_choice: ResponsesToolChoice.nullish(),
    text: z.object({ format: ResponsesTextFormat.nullish(), verbosity: settingToken.nullish() }).loose().nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    max_output_tokens: z.number().int().positive().nullish(),
    stream: z.boolean().nullish(),
    previous_response_id: z.string().nullish(),
    store: z.boolean().nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    user: userId.nullish(),
    metadata: metadata.nullish(),
    reasoning: z
      .object({
        effort: ReasoningEffort.nullish(),
        summary: settingToken.nullish(),
        generate_summary: settingToken.nullish(),
        context: settingToken.nullish(),
        mode: settingToken.nullish(),
      })
      .loose()
      .nullish(),
    service_tier: settingToken.nullish(),
    truncation: settingToken.nullish(),
    include: z.array(settingToken).max(32).nullish(),
    prompt_cache_key: z.string().max(1024).nullish(),
    prompt_cache_retention: settingToken.nullish(),
  })
  .loose();
export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;

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
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z
          .array(z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) }))
          .optional(),
      }),
      finish_reason: z.enum(['stop', 'length', 'tool_calls']),
      logprobs: z.null(),
    }),
  ),
  usage: OpenAIUsage,
  system_fingerprint: z.null(),
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

const ResponsesOutputItem = z.discriminatedUnion('type', [
  z.object({
    id: z.string(),
    type: z.literal('message'),
    status: z.literal('completed'),
    role: z.literal('assistant'),
    content: z.array(z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()), logprobs: z.array(z.unknown()) })),
  }),
  z.object({ id: z.string(), type: z.literal('function_call'), status: z.literal('completed'), call_id: z.string(), name: z.string(), arguments: z.string() }),
]);

export const ResponsesResponseSchema = z.object({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['completed', 'incomplete']),
  error: z.null(),
  incomplete_details: z.object({ reason: z.literal('max_output_tokens') }).nullable(),
  model: z.string(),
  output: z.array(ResponsesOutputItem),
  previous_response_id: z.null(),
  reasoning: z.object({ effort: z.null(), summary: z.null() }),
  store: z.literal(false),
  truncation: z.literal('disabled'),
  usage: z.object({
    input_tokens: z.number().int(),
    input_tokens_details: z.object({ cached_tokens: z.number().int() }),
    output_tokens: z.number().int(),
    output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
    total_tokens: z.number().int(),
  }),
  instructions: z.string().nullable(),
  max_output_tokens: z.number().int().nullable(),
  parallel_tool_calls: z.boolean(),
  temperature: z.number().nullable(),
  top_p: z.number().nullable(),
  text: z.object({ format: z.record(z.string(), z.unknown()) }),
  tool_choice: z.unknown(),
  tools: z.array(z.unknown()),
  metadata: z.record(z.string(), z.string()),
  user: z.string().nullable(),
});

/** One model address: OpenAI's model object with the Anthropic SDK's fields beside (`type`, `display_name`, `created_at`). */
export const ModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  type: z.literal('model'),
  display_name: z.string(),
  created_at: z.string(),
});

/** OpenAI's list shape, with the Anthropic SDK's list fields beside (`has_more`, `first_id`, `last_id`). */
export const ModelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(ModelSchema),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});

/** OpenAI's error envelope; quota refusals (402) keep their details (`feature`, `requiredPlan`...) beside the four keys. */
export const OpenAIErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), code: z.string().nullable(), param: z.string().nullable() }).loose(),
});
export const AnthropicErrorSchema = z.object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string() }) });
