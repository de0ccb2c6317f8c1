// OpenAI-compatible chat completions: OpenAI itself, and any server that speaks
// its API (Ollama, vLLM, LM Studio) through `baseUrl`.
import { ChatOpenAI } from '@langchain/openai';

export interface OpenAIModelConfig {
  provider: 'openai';
  /** e.g. a local server's `/v1` endpoint; omitted for OpenAI itself. */
  baseUrl?: string;
  /** Local servers usually need none; a placeholder is sent so the SDK never falls back to the environment. */
  apiKey?: string;
  model: string;
}

const NO_KEY = 'not-needed';

export function createOpenAIModel(config: OpenAIModelConfig): ChatOpenAI {
  return new ChatOpenAI({
    model: config.model,
    apiKey: config.apiKey ?? NO_KEY,
    // Usage arrives in a last chunk when asked for (`stream_options.include_usage`); servers that do
    // not know the option ignore it and report nothing.
    streamUsage: true,
    // Retries and the timeout that ends a hang are ours, in one place (nodes/model-call-policy.ts).
    maxRetries: 0,
    configuration: {
      apiKey: config.apiKey ?? NO_KEY,
      ...(config.baseUrl === undefined ? {} : { baseURL: config.baseUrl }),
    },
  });
}
