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
    // Retries and the timeout that ends a hang are ours, in one place (nodes/model-call-policy.ts).
    maxRetries: 0,
    ...(config.baseUrl === undefined ? {} : { anthropicApiUrl: config.baseUrl }),
  });
}
