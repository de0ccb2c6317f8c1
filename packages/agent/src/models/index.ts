// Model selection. The configuration arrives as an argument (the studio reads
// its environment in one place and passes it here); nothing below reads
// process.env, and keys are always passed explicitly so the SDKs never fall
// back to environment variables of their own.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { createAnthropicModel, type AnthropicModelConfig } from './anthropic';
import { OfflineChatModel } from './offline';
import { createOpenAIModel, type OpenAIModelConfig } from './openai';

export interface OfflineModelConfig {
  provider: 'offline';
  /** Pause before each streamed chunk, in ms (default 0). */
  chunkDelayMs?: number;
}

export type ModelConfig = OfflineModelConfig | OpenAIModelConfig | AnthropicModelConfig;

export function createModel(config: ModelConfig): BaseChatModel {
  switch (config.provider) {
    case 'offline':
      return new OfflineChatModel({ keepInputs: 0, ...(config.chunkDelayMs === undefined ? {} : { chunkDelayMs: config.chunkDelayMs }) });
    case 'openai':
      return createOpenAIModel(config);
    case 'anthropic':
      return createAnthropicModel(config);
  }
}

/** What the offline model received, call by call; `undefined` for any other model. */
export function receivedByOfflineModel(model: BaseChatModel): readonly BaseMessage[][] | undefined {
  return model instanceof OfflineChatModel ? model.received : undefined;
}

/** A label for the UI, e.g. "offline model" or "openai · llama3.1". */
export function describeModel(config: ModelConfig): string {
  return config.provider === 'offline' ? 'offline model' : `${config.provider} · ${config.model}`;
}

/** What must never appear in a stored reason or a log: the configured key. */
export function modelSecrets(config: ModelConfig): string[] {
  return config.provider !== 'offline' && config.apiKey !== undefined && config.apiKey !== '' ? [config.apiKey] : [];
}
