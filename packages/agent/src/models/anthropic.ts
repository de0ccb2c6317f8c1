// Anthropic's Messages API.
import { ChatAnthropic } from '@langchain/anthropic';

export interface AnthropicModelConfig {
  provider: 'anthropic';
  apiKey: string;
  model: string;
  baseUrl?: string;
}

export function createAnthropicModel(config: AnthropicModelConfig): ChatAnthropic {
  return new ChatAnthropic({
    model: config.model,
    apiKey: config.apiKey,
    maxTokens: 4096,
    maxRetries: 2,
    ...(config.baseUrl === undefined ? {} : { anthropicApiUrl: config.baseUrl }),
  });
}
