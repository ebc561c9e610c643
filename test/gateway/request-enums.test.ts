import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicMessagesRequestSchema, OpenAIChatRequestSchema, ResponsesRequestSchema } from '../../src/modules/gateway/gateway.schemas.js';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { installedVersion, stringLiteralsOf } from '../support/client-types.js';
import { PREMIUM_MODEL, STANDARD_MODEL, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';
import { closedEnumPaths } from '../support/zod-enums.js';

/*
 * Every value the installed official clients' types allow for each enumerated field of the gateway's
 * request schemas (issue 31), sent over HTTP to an OpenAI-compatible model and to an Anthropic model:
 * each is answered (forwarded, mapped or dropped as docs/gateway.md's "Request fields" table says, and
 * checked in what the model server received), or, for content and tools the gateway cannot carry
 * (images, audio, files, built-in, MCP and custom tools), refused with the documented 400 naming what
 * is supported: never zod's "Invalid option". The values are read from the clients' type definitions;
 * the list of fields names the client versions it was written against, and fails on any other, so an
 * upgrade is the moment to revisit it.
 */

const WRITTEN_AGAINST = { openai: '6.49.0', '@anthropic-ai/sdk': '1.12.0' } as const;

type Route = '/v1/chat/completions' | '/v1/responses' | '/v1/messages';
type Body = Record<string, any>;

interface FieldCase {
  route: Route;
  /** The field, in closedEnumPaths' notation (`messages[].role`). */
  field: string;
  /** A type expression over the client's types (see IMPORTS) whose string literals are the values. */
  type: string;
  /** The body fields that carry the value (they replace the base body's fields of the same name). */
  body: (value: string) => Body;
  /** Values refused on purpose, with the documented message. */
  refused?: { values: string[]; message: RegExp };
  /** What each model received: `openai` the OpenAI-compatible one, `anthropic` the Anthropic one. */
  check?: (value: string, sent: { openai: Body; anthropic: Body }) => void;
  /** Also answered by the local model (`svc-sensitive`), which takes none of these settings. */
  local?: boolean;
}

const IMPORTS = `
type X<T> = Exclude<T, null | undefined>;
import type {
  ChatCompletionCreateParamsBase as C, ChatCompletionMessageParam as M, ChatCompletionAssistantMessageParam,
  ChatCompletionTool, ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions/completions';
import type {
  ResponseCreateParamsBase as R, ResponseInputItem, EasyInputMessage, ResponseInputContent, ResponseOutputMessage,
  Tool, ToolChoiceAllowed,
} from 'openai/resources/responses/responses';
import type {
  MessageCreateParamsBase as A, ContentBlockParam, ToolResultBlockParam, TextBlockParam, ToolChoice as AToolChoice, MessageParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
`;

// ---- bodies ----

const user = { role: 'user', content: 'Hi' };
const weather = { type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: {} } } };
const clock = { type: 'function', function: { name: 'clock', parameters: { type: 'object', properties: {} } } };
const respWeather = { type: 'function', name: 'weather', parameters: { type: 'object', properties: {} } };
const respClock = { type: 'function', name: 'clock', parameters: { type: 'object', properties: {} } };
const anthWeather = { name: 'weather', input_schema: { type: 'object', properties: {} } };
const askedWeather = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } }] };

const base: Record<Route, (model: string) => Body> = {
  '/v1/chat/completions': (model) => ({ model, messages: [user] }),
  '/v1/responses': (model) => ({ model, input: 'Hi' }),
  '/v1/messages': (model) => ({ model, max_tokens: 64, messages: [user] }),
};

/** A conversation in which a message of this role can stand (OpenAI Chat Completions). */
function chatConversation(role: string): Body {
  switch (role) {
    case 'user':
      return { messages: [user] };
    case 'assistant':
      return { messages: [user, { role: 'assistant', content: 'Hello.' }, user] };
    case 'tool':
      return { messages: [user, askedWeather, { role: 'tool', tool_call_id: 'c1', content: 'sunny' }], tools: [weather] };
    case 'function':
      return {
        messages: [user, { role: 'assistant', content: null, function_call: { name: 'weather', arguments: '{}' } }, { role: 'function', name: 'weather', content: 'sunny' }],
        functions: [weather.function],
      };
    default:
      return { messages: [{ role, content: 'Be brief.' }, user] };
  }
}

const anthropicToolTurns = [
  user,
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }] },
];

/** Anthropic thinking for an OpenAI effort with max_tokens 20 000 (docs/gateway.md). */
const THINKING_AT_20K: Record<string, unknown> = {
  none: { type: 'disabled' },
  minimal: { type: 'enabled', budget_tokens: 1024 },
  low: { type: 'enabled', budget_tokens: 2048 },
  medium: { type: 'enabled', budget_tokens: 8192 },
  high: { type: 'enabled', budget_tokens: 16_384 },
  xhigh: { type: 'enabled', budget_tokens: 19_999 },
  max: { type: 'enabled', budget_tokens: 19_999 },
};

const effortCheck = (v: string, sent: { openai: Body; anthropic: Body }) => {
  expect(sent.openai.reasoning_effort).toBe(v);
  expect(sent.anthropic.thinking).toEqual(THINKING_AT_20K[v]);
};
const verbosityCheck = (v: string, sent: { openai: Body; anthropic: Body }) => {
  expect(sent.openai.verbosity).toBe(v);
  expect(sent.anthropic.verbosity).toBeUndefined();
};
/** A setting no provider is sent (docs/gateway.md says why, per field). */
const dropped = (...keys: string[]) => (_v: string, sent: { openai: Body; anthropic: Body }) => {
  for (const key of keys) {
    expect(sent.openai[key], key).toBeUndefined();
    expect(sent.anthropic[key], key).toBeUndefined();
  }
  expect(sent.openai.reasoning_effort).toBeUndefined();
  expect(sent.anthropic.thinking).toBeUndefined();
};
const toolChoiceCheck = (v: string, sent: { openai: Body; anthropic: Body }) => {
  if (v === 'none') {
    expect(sent.openai.tools).toBeUndefined();
    expect(sent.anthropic.tools).toBeUndefined();
    return;
  }
  expect(sent.openai.tools).toHaveLength(1);
  expect(sent.openai.tool_choice).toEqual(v === 'required' ? 'required' : undefined);
  expect(sent.anthropic.tool_choice).toEqual(v === 'required' ? { type: 'any' } : undefined);
};
const allowedToolsCheck = (v: string, sent: { openai: Body; anthropic: Body }) => {
  expect(sent.openai.tools.map((t: Body) => t.function.name)).toEqual(['weather']);
  expect(sent.anthropic.tools.map((t: Body) => t.name)).toEqual(['weather']);
  expect(sent.openai.tool_choice).toEqual(v === 'required' ? 'required' : undefined);
};
const formatCheck = (v: string, sent: { openai: Body; anthropic: Body }) => {
  expect(sent.openai.response_format?.type).toBe(v === 'text' ? undefined : v);
  expect(sent.anthropic.output_config?.format?.type).toBe(v === 'json_schema' ? 'json_schema' : undefined);
};
const UNSUPPORTED_CONTENT = /^messages\[\d\]\.content\[0\]\.type: only text and refusal content parts are supported$/;

const CASES: FieldCase[] = [
  // ---- OpenAI Chat Completions ----
  { route: '/v1/chat/completions', field: 'reasoning_effort', type: `X<C['reasoning_effort']>`, body: (v) => ({ reasoning_effort: v, max_completion_tokens: 20_000 }), check: effortCheck, local: true },
  { route: '/v1/chat/completions', field: 'verbosity', type: `X<C['verbosity']>`, body: (v) => ({ verbosity: v }), check: verbosityCheck, local: true },
  { route: '/v1/chat/completions', field: 'service_tier', type: `X<C['service_tier']>`, body: (v) => ({ service_tier: v }), check: dropped('service_tier') },
  { route: '/v1/chat/completions', field: 'modalities[]', type: `X<C['modalities']>[number]`, body: (v) => ({ modalities: [v] }), check: dropped('modalities') },
  { route: '/v1/chat/completions', field: 'prompt_cache_retention', type: `X<C['prompt_cache_retention']>`, body: (v) => ({ prompt_cache_retention: v }), check: dropped('prompt_cache_retention') },
  { route: '/v1/chat/completions', field: 'prompt_cache_options.mode', type: `X<X<C['prompt_cache_options']>['mode']>`, body: (v) => ({ prompt_cache_options: { mode: v } }), check: dropped('prompt_cache_options') },
  { route: '/v1/chat/completions', field: 'prompt_cache_options.ttl', type: `X<X<C['prompt_cache_options']>['ttl']>`, body: (v) => ({ prompt_cache_options: { ttl: v } }), check: dropped('prompt_cache_options') },
  { route: '/v1/chat/completions', field: 'web_search_options.search_context_size', type: `X<X<C['web_search_options']>['search_context_size']>`, body: (v) => ({ web_search_options: { search_context_size: v } }), check: dropped('web_search_options') },
  { route: '/v1/chat/completions', field: 'audio.format', type: `X<C['audio']>['format']`, body: (v) => ({ modalities: ['text', 'audio'], audio: { format: v, voice: 'alloy' } }), check: dropped('audio', 'modalities') },
  {
    route: '/v1/chat/completions',
    field: 'messages[].role',
    type: `M['role']`,
    body: chatConversation,
    check: (v, sent) => {
      if (v !== 'function') return;
      // The deprecated function calling, as tool calls: the result answers the call by its id.
      expect(sent.openai.messages.slice(1)).toEqual([
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_fn_1', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_fn_1', content: 'sunny' },
      ]);
      expect(sent.anthropic.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'call_fn_1', content: 'sunny' });
    },
  },
  {
    route: '/v1/chat/completions',
    field: 'messages[].content[].type',
    type: `Exclude<X<M['content']>, string>[number]['type']`,
    body: (v) =>
      v === 'text'
        ? { messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }
        : v === 'refusal'
          ? { messages: [user, { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot.' }] }, user] }
          : { messages: [{ role: 'user', content: [{ type: v }] }] },
    refused: { values: ['file', 'image_url', 'input_audio'], message: UNSUPPORTED_CONTENT },
    check: (v, sent) => {
      if (v === 'refusal') expect(sent.openai.messages[1]).toEqual({ role: 'assistant', content: 'I cannot.' });
    },
  },
  {
    route: '/v1/chat/completions',
    field: 'messages[].tool_calls[].type',
    type: `X<ChatCompletionAssistantMessageParam['tool_calls']>[number]['type']`,
    body: (v) => ({
      messages: [user, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: v, function: { name: 'weather', arguments: '{}' }, custom: { name: 'weather', input: '' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'sunny' }],
      tools: [weather],
    }),
    refused: { values: ['custom'], message: /^messages\[1\]\.tool_calls\[0\]\.type: only function tool calls are supported/ },
  },
  {
    route: '/v1/chat/completions',
    field: 'tools[].type',
    type: `ChatCompletionTool['type']`,
    body: (v) => ({ tools: [v === 'function' ? weather : { type: v, [v]: { name: 'weather' } }] }),
    refused: { values: ['custom'], message: /^tools\[0\]\.type: only function tools are supported/ },
  },
  { route: '/v1/chat/completions', field: 'tool_choice', type: `Extract<ChatCompletionToolChoiceOption, string>`, body: (v) => ({ tools: [weather], tool_choice: v }), check: toolChoiceCheck },
  {
    route: '/v1/chat/completions',
    field: 'tool_choice.type',
    type: `Exclude<ChatCompletionToolChoiceOption, string>['type']`,
    body: (v) => ({
      tools: [weather, clock],
      tool_choice:
        v === 'function'
          ? { type: v, function: { name: 'weather' } }
          : v === 'allowed_tools'
            ? { type: v, allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'weather' } }] } }
            : { type: v, [v]: { name: 'weather' } },
    }),
    refused: { values: ['custom'], message: /custom tools are not supported/ },
    check: (v, sent) => {
      if (v === 'function') expect(sent.anthropic.tool_choice).toEqual({ type: 'tool', name: 'weather' });
      else allowedToolsCheck('required', sent);
    },
  },
  {
    route: '/v1/chat/completions',
    field: 'tool_choice.allowed_tools.mode',
    type: `Extract<ChatCompletionToolChoiceOption, { type: 'allowed_tools' }>['allowed_tools']['mode']`,
    body: (v) => ({ tools: [weather, clock], tool_choice: { type: 'allowed_tools', allowed_tools: { mode: v, tools: [{ type: 'function', function: { name: 'weather' } }] } } }),
    check: allowedToolsCheck,
  },
  {
    route: '/v1/chat/completions',
    field: 'response_format.type',
    type: `X<C['response_format']>['type']`,
    body: (v) => ({ response_format: v === 'json_schema' ? { type: v, json_schema: { name: 'out', schema: { type: 'object' } } } : { type: v } }),
    check: formatCheck,
  },
  { route: '/v1/chat/completions', field: 'function_call', type: `Extract<X<C['function_call']>, string>`, body: (v) => ({ functions: [weather.function], function_call: v }), check: toolChoiceCheck },

  // ---- OpenAI Responses ----
  { route: '/v1/responses', field: 'reasoning.effort', type: `X<X<R['reasoning']>['effort']>`, body: (v) => ({ reasoning: { effort: v }, max_output_tokens: 20_000 }), check: effortCheck, local: true },
  ...(['summary', 'generate_summary', 'context', 'mode'] as const).map(
    (key): FieldCase => ({ route: '/v1/responses', field: `reasoning.${key}`, type: `X<X<R['reasoning']>['${key}']>`, body: (v) => ({ reasoning: { [key]: v } }), check: dropped('reasoning') }),
  ),
  { route: '/v1/responses', field: 'text.verbosity', type: `X<X<R['text']>['verbosity']>`, body: (v) => ({ text: { verbosity: v } }), check: verbosityCheck, local: true },
  {
    route: '/v1/responses',
    field: 'text.format.type',
    type: `X<X<R['text']>['format']>['type']`,
    body: (v) => ({ text: { format: v === 'json_schema' ? { type: v, name: 'out', schema: { type: 'object' } } : { type: v } } }),
    check: formatCheck,
  },
  { route: '/v1/responses', field: 'service_tier', type: `X<R['service_tier']>`, body: (v) => ({ service_tier: v }), check: dropped('service_tier') },
  { route: '/v1/responses', field: 'truncation', type: `X<R['truncation']>`, body: (v) => ({ truncation: v }), check: dropped('truncation') },
  { route: '/v1/responses', field: 'include[]', type: `X<R['include']>[number]`, body: (v) => ({ include: [v] }), check: dropped('include') },
  { route: '/v1/responses', field: 'prompt_cache_retention', type: `X<R['prompt_cache_retention']>`, body: (v) => ({ prompt_cache_retention: v }), check: dropped('prompt_cache_retention') },
  { route: '/v1/responses', field: 'prompt_cache_options.mode', type: `X<R['prompt_cache_options']>['mode']`, body: (v) => ({ prompt_cache_options: { mode: v, ttl: '30m' } }), check: dropped('prompt_cache_options') },
  { route: '/v1/responses', field: 'prompt_cache_options.ttl', type: `X<R['prompt_cache_options']>['ttl']`, body: (v) => ({ prompt_cache_options: { mode: 'implicit', ttl: v } }), check: dropped('prompt_cache_options') },
  { route: '/v1/responses', field: 'tool_choice', type: `Extract<X<R['tool_choice']>, string>`, body: (v) => ({ tools: [respWeather], tool_choice: v }), check: toolChoiceCheck },
  {
    route: '/v1/responses',
    field: 'tool_choice.type',
    type: `Exclude<X<R['tool_choice']>, string>['type']`,
    body: (v) => ({
      tools: [respWeather, respClock],
      tool_choice:
        v === 'function'
          ? { type: v, name: 'weather' }
          : v === 'allowed_tools'
            ? { type: v, mode: 'required', tools: [{ type: 'function', name: 'weather' }] }
            : { type: v, name: 'weather', server_label: 'x' },
    }),
    refused: { values: [], message: /built-in, MCP and custom tools are not supported/ },
    check: (v, sent) => {
      if (v === 'function') expect(sent.anthropic.tool_choice).toEqual({ type: 'tool', name: 'weather' });
      else allowedToolsCheck('required', sent);
    },
  },
  {
    route: '/v1/responses',
    field: 'tool_choice.mode',
    type: `ToolChoiceAllowed['mode']`,
    body: (v) => ({ tools: [respWeather, respClock], tool_choice: { type: 'allowed_tools', mode: v, tools: [{ type: 'function', name: 'weather' }] } }),
    check: allowedToolsCheck,
  },
  {
    route: '/v1/responses',
    field: 'tools[].type',
    type: `Tool['type']`,
    body: (v) => ({ tools: [v === 'function' ? respWeather : { type: v, name: 'x' }] }),
    refused: { values: [], message: /^tools\[0\]\.type: only function tools are supported$/ },
  },
  {
    route: '/v1/responses',
    field: 'input[].type',
    type: `X<ResponseInputItem['type']>`,
    body: (v) => {
      switch (v) {
        case 'message':
          return { input: [{ type: v, role: 'user', content: 'Hi' }] };
        case 'function_call':
        case 'function_call_output':
          return {
            input: [user, { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'sunny' }],
            tools: [respWeather],
          };
        case 'reasoning':
          return { input: [user, { type: v, id: 'rs_1', summary: [] }, user] };
        default:
          return { input: [{ type: v, id: 'x1' }, user] };
      }
    },
    refused: { values: [], message: /^(input\[0\]\.type: input items must be messages, function_call, function_call_output or reasoning items: built-in, MCP and custom tool items are not supported$|item_reference is not supported: this gateway stores no responses)/ },
  },
  {
    route: '/v1/responses',
    field: 'input[].role',
    type: `EasyInputMessage['role']`,
    body: (v) => ({ input: v === 'user' ? [user] : [{ role: v, content: v === 'assistant' ? 'Hello.' : 'Be brief.' }, user] }),
  },
  {
    route: '/v1/responses',
    field: 'input[].content[].type',
    type: `ResponseInputContent['type'] | ResponseOutputMessage['content'][number]['type']`,
    body: (v) =>
      v === 'input_text'
        ? { input: [{ role: 'user', content: [{ type: v, text: 'Hi' }] }] }
        : v === 'output_text' || v === 'refusal'
          ? { input: [user, { role: 'assistant', content: [v === 'refusal' ? { type: v, refusal: 'I cannot.' } : { type: v, text: 'Hello.' }] }, user] }
          : { input: [{ role: 'user', content: [{ type: v }] }] },
    refused: { values: [], message: /^input\[0\]\.content\[0\]\.type: only input_text, output_text and refusal content parts are supported$/ },
    check: (v, sent) => {
      if (v === 'refusal') expect(sent.openai.messages[1]).toEqual({ role: 'assistant', content: 'I cannot.' });
    },
  },
  {
    route: '/v1/responses',
    field: 'input[].output[].type',
    type: `Exclude<Extract<ResponseInputItem, { type: 'function_call_output' }>['output'], string>[number]['type']`,
    body: (v) => ({
      input: [user, { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: [v === 'input_text' ? { type: v, text: 'sunny' } : { type: v }] }],
      tools: [respWeather],
    }),
    refused: { values: [], message: /^input\[2\]\.output\[0\]\.type: only input_text, output_text and refusal content parts are supported$/ },
  },

  // ---- Anthropic Messages ----
  {
    route: '/v1/messages',
    field: 'thinking.type',
    type: `X<A['thinking']>['type']`,
    body: (v) => ({ max_tokens: 2048, thinking: v === 'enabled' ? { type: v, budget_tokens: 1024 } : { type: v } }),
    check: (v, sent) => {
      expect(sent.anthropic.thinking).toEqual(v === 'enabled' ? { type: v, budget_tokens: 1024 } : { type: v });
      expect(sent.openai.thinking).toBeUndefined();
      expect(sent.openai.reasoning_effort).toBeUndefined();
    },
    local: true,
  },
  {
    route: '/v1/messages',
    field: 'thinking.display',
    type: `X<Extract<X<A['thinking']>, { type: 'adaptive' }>['display']>`,
    body: (v) => ({ thinking: { type: 'adaptive', display: v } }),
    check: (v, sent) => expect(sent.anthropic.thinking).toEqual({ type: 'adaptive', display: v }),
  },
  {
    route: '/v1/messages',
    field: 'output_config.effort',
    type: `X<X<A['output_config']>['effort']>`,
    body: (v) => ({ output_config: { effort: v } }),
    check: (v, sent) => {
      expect(sent.anthropic.output_config).toEqual({ effort: v });
      expect(sent.anthropic.thinking).toBeUndefined();
      expect(sent.openai.reasoning_effort).toBe(v);
    },
    local: true,
  },
  {
    route: '/v1/messages',
    field: 'output_config.format.type',
    type: `X<X<A['output_config']>['format']>['type']`,
    body: (v) => ({ output_config: { format: { type: v, schema: { type: 'object' } } } }),
    check: (_v, sent) => formatCheck('json_schema', sent),
  },
  { route: '/v1/messages', field: 'service_tier', type: `X<A['service_tier']>`, body: (v) => ({ service_tier: v }), check: dropped('service_tier') },
  { route: '/v1/messages', field: 'speed', type: `X<A['speed']>`, body: (v) => ({ speed: v }), check: dropped('speed') },
  {
    route: '/v1/messages',
    field: 'tool_choice.type',
    type: `AToolChoice['type']`,
    body: (v) => ({ tools: [anthWeather], tool_choice: v === 'tool' ? { type: v, name: 'weather' } : { type: v } }),
    check: (v, sent) => (v === 'tool' ? expect(sent.openai.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } }) : toolChoiceCheck(v === 'any' ? 'required' : v, sent)),
  },
  {
    route: '/v1/messages',
    field: 'messages[].role',
    type: `MessageParam['role']`,
    body: (v) => ({ messages: v === 'user' ? [user] : [user, { role: v, content: v === 'system' ? 'Be brief.' : 'Hello.' }, user] }),
    check: (v, sent) => {
      if (v !== 'system') return;
      // A system turn joins the system prompt (Anthropic) or the system messages, first (OpenAI-compatible).
      expect(sent.anthropic.system).toBe('Be brief.');
      expect(sent.openai.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    },
  },
  {
    route: '/v1/messages',
    field: 'messages[].content[].type',
    type: `ContentBlockParam['type']`,
    body: (v) => {
      switch (v) {
        case 'text':
          return { messages: [{ role: 'user', content: [{ type: v, text: 'Hi' }] }] };
        case 'tool_use':
        case 'tool_result':
          return { messages: anthropicToolTurns, tools: [anthWeather] };
        case 'thinking':
        case 'redacted_thinking':
          return { messages: [user, { role: 'assistant', content: [{ type: v, thinking: 'Hmm.', signature: 's', data: 'd' }, { type: 'text', text: 'Hello.' }] }, user] };
        default:
          return { messages: [{ role: 'user', content: [{ type: v }] }] };
      }
    },
    refused: {
      values: [],
      message: /^messages\[0\]\.content\[0\]\.type: only text, tool_use, tool_result, thinking and redacted_thinking content blocks are supported$/,
    },
    check: (v, sent) => {
      // Thinking carries nothing a provider takes back: the assistant turn keeps its text.
      if (v === 'thinking' || v === 'redacted_thinking') expect(sent.anthropic.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] });
    },
  },
  {
    route: '/v1/messages',
    field: 'messages[].content[].content[].type',
    type: `Exclude<X<ToolResultBlockParam['content']>, string>[number]['type']`,
    body: (v) => ({
      messages: [anthropicToolTurns[0], anthropicToolTurns[1], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [v === 'text' ? { type: v, text: 'sunny' } : { type: v }] }] }],
      tools: [anthWeather],
    }),
    refused: { values: [], message: /^messages\[2\]\.content\[0\]\.content\[0\]\.type: only text blocks are supported in tool results$/ },
  },
  { route: '/v1/messages', field: 'system[].type', type: `TextBlockParam['type']`, body: (v) => ({ system: [{ type: v, text: 'Be brief.' }] }) },
];

/** Values a case accepts: only those the gateway carries are listed per case; every other one is refused. */
const ACCEPTED: Record<string, string[]> = {
  '/v1/responses tool_choice.type': ['allowed_tools', 'function'],
  '/v1/responses tools[].type': ['function'],
  '/v1/responses input[].type': ['function_call', 'function_call_output', 'message', 'reasoning'],
  '/v1/responses input[].content[].type': ['input_text', 'output_text', 'refusal'],
  '/v1/responses input[].output[].type': ['input_text'],
  '/v1/messages messages[].content[].type': ['redacted_thinking', 'text', 'thinking', 'tool_result', 'tool_use'],
  '/v1/messages messages[].content[].content[].type': ['text'],
};

const SCHEMAS: Record<Route, Parameters<typeof closedEnumPaths>[0]> = {
  '/v1/chat/completions': OpenAIChatRequestSchema,
  '/v1/responses': ResponsesRequestSchema,
  '/v1/messages': AnthropicMessagesRequestSchema,
};

let h: GatewayHarness;
let a: TestTenant;
let values: Record<string, string[]>;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '100000' }));
  // A JSON object answers every format asked (json_object, a { type: object } schema) and reads as text otherwise.
  h.models.setDefault({ content: '{"answer":"ok"}' });
  values = stringLiteralsOf(IMPORTS, Object.fromEntries(CASES.map((c) => [`${c.route} ${c.field}`, c.type])));
}, 120_000);
afterAll(() => h.close());

const isRefused = (c: FieldCase, v: string): boolean => {
  const accepted = ACCEPTED[`${c.route} ${c.field}`];
  return accepted ? !accepted.includes(v) : (c.refused?.values.includes(v) ?? false);
};

describe('request enums: every value the installed clients allow', () => {
  it(`the clients are the versions this list was written against (openai ${WRITTEN_AGAINST.openai}, @anthropic-ai/sdk ${WRITTEN_AGAINST['@anthropic-ai/sdk']}): on another, revisit CASES`, () => {
    expect(installedVersion('openai')).toBe(WRITTEN_AGAINST.openai);
    expect(installedVersion('@anthropic-ai/sdk')).toBe(WRITTEN_AGAINST['@anthropic-ai/sdk']);
  });

  it('every closed enumeration of the three request schemas is a case here', () => {
    for (const [route, schema] of Object.entries(SCHEMAS)) {
      const covered = CASES.filter((c) => c.route === route).map((c) => c.field);
      for (const [path, ours] of Object.entries(closedEnumPaths(schema))) {
        expect(covered, `${route} ${path} (${ours.join(', ')}) has no case`).toContain(path);
      }
    }
  });

  it.each(CASES.map((c) => [`${c.route} ${c.field}`, c] as const))('%s', async (_name, c) => {
    const all = values[`${c.route} ${c.field}`];
    expect(all.length).toBeGreaterThan(0);
    const post = (model: string, v: string) => api(h.t.baseUrl, a.key).post(c.route, { ...base[c.route](model), ...c.body(v) });
    for (const v of all) {
      if (isRefused(c, v)) {
        const res = await post(STANDARD_MODEL, v);
        expect(res.status, `${c.field} = ${v}`).toBe(400);
        const message: string = c.route === '/v1/messages' ? res.body.error.message : res.body.error.message;
        expect(message, `${c.field} = ${v}`).toMatch(c.refused?.message ?? /never/);
        expect(message).not.toMatch(/Invalid (option|input)/);
        continue;
      }
      const sent: { openai: Body; anthropic: Body } = { openai: {}, anthropic: {} };
      for (const [model, key] of [
        [STANDARD_MODEL, 'openai'],
        [PREMIUM_MODEL, 'anthropic'],
      ] as const) {
        const before = h.models.requests.length;
        const res = await post(model, v);
        expect(res.status, `${c.field} = ${v} to ${model}: ${res.text}`).toBe(200);
        expect(h.models.requests.length).toBe(before + 1);
        sent[key] = h.lastModelRequest();
      }
      c.check?.(v, sent);
      if (c.local) {
        const res = await post('svc-sensitive', v);
        expect(res.status, `${c.field} = ${v} to the local model: ${res.text}`).toBe(200);
      }
    }
  });

  it('a malformed value is still a 400 naming the field: a wrong type, empty, or not a token', async () => {
    const post = (route: Route, body: Body) => api(h.t.baseUrl, a.key).post(route, { ...base[route](STANDARD_MODEL), ...body });
    const cases: [Route, Body, string][] = [
      ['/v1/chat/completions', { reasoning_effort: 5 }, 'reasoning_effort'],
      ['/v1/chat/completions', { verbosity: '' }, 'verbosity'],
      ['/v1/chat/completions', { service_tier: { tier: 'flex' } }, 'service_tier'],
      ['/v1/chat/completions', { modalities: 'text' }, 'modalities'],
      ['/v1/responses', { reasoning: { effort: 'very high' } }, 'reasoning.effort'],
      ['/v1/responses', { include: ['x'.repeat(65)] }, 'include[0]'],
      ['/v1/messages', { output_config: { effort: true } }, 'output_config.effort'],
      ['/v1/messages', { thinking: { type: 'enabled' } }, 'thinking.budget_tokens'],
    ];
    for (const [route, body, param] of cases) {
      const res = await post(route, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (route === '/v1/messages') expect(res.body.error.message).toContain(param);
      else expect(res.body.error.param).toBe(param);
    }
  });

  it('a value no client knows yet is forwarded to the OpenAI-compatible model and dropped for the Anthropic one', async () => {
    const post = (model: string) => api(h.t.baseUrl, a.key).post('/v1/chat/completions', { ...base['/v1/chat/completions'](model), reasoning_effort: 'ultra', verbosity: 'terse' });
    expect((await post(STANDARD_MODEL)).status).toBe(200);
    expect(h.lastModelRequest()).toMatchObject({ reasoning_effort: 'ultra', verbosity: 'terse' });
    expect((await post(PREMIUM_MODEL)).status).toBe(200);
    expect(h.lastModelRequest().thinking).toBeUndefined();
  });
});
