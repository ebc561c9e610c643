export * from './provider.js';
export { OpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai-compatible.provider.js';
export { AnthropicProvider, type AnthropicOptions } from './anthropic.provider.js';
export { LocalProvider, LOCAL_MODEL_NAME } from './local.provider.js';
export { CLASS_MULTIPLIER, ModelRegistry, loadModelsConfig, type InjectedProviders, type ModelsConfig } from './registry.js';
export { countMessageTokens, countTextTokens, truncateToTokens } from './tokenizer.js';
