// The `chat` node: one model call over the system prompt (rebuilt from the
// live workspace, never stored) and the thread's working context. The node
// streams the call itself and writes each piece of text to LangGraph's
// `custom` stream (config.writer) as it arrives, tagged with the graph step:
// no callback handler sits on the token path (LangGraph's `messages` mode
// would dispatch every token through LangChain's callback manager, and
// observe every runnable of the run besides).
import { randomUUID } from 'node:crypto';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { Command, END } from '@langchain/langgraph';
import { buildSystemPrompt } from '../prompts/system';
import type { AgentState, AgentUpdate } from '../state';
import { WORKSPACE_TOOLS } from '../tools/index';
import { conditionOf, pathsOf, workspaceOf, type AgentRunConfig } from './context';
import { readPathTool } from '../tools/read-path';
import { describeProviderFailure } from '@trellis/domain';
import { classifyProviderError, ProviderCallError } from '../models/provider-errors';
import { CallWatchdog, DEFAULT_MODEL_CALL_POLICY, retryDelayMs, sleep, type ModelCallPolicy } from './model-call-policy';
import { ReplyChunks } from './reply-chunks';
import type { StatusEventPayload, TokenEventPayload, UsageEventPayload } from './stream-payloads';

export const CHAT_NODE = 'chat';
export const TOOLS_NODE = 'tools';

/**
 * The tool specs handed to `bindTools`: name, description and the zod schema. A study's condition
 * (`only`) limits the workspace tools; it never names `read_path`, which is among them exactly for a
 * turn whose message referenced other paths: otherwise the model is not even told that other paths exist.
 */
export function toolSpecs(only?: readonly string[] | null, options: { withReadPath?: boolean } = {}) {
  const workspaceTools = WORKSPACE_TOOLS.filter((t) => !only || only.includes(t.name));
  const tools = options.withReadPath ? [...workspaceTools, readPathTool] : workspaceTools;
  return tools.map((t) => ({ name: t.name, description: t.description, schema: t.schema }));
}

export interface ChatNodeOptions {
  /** How a model call waits, gives up and retries. */
  policy?: ModelCallPolicy;
  /** The configured model's name, recorded with the tokens the provider reports. */
  modelName?: string | undefined;
  /**
   * Other models a study's condition may name (`offline` beside a configured provider), by name.
   * Their tokens are recorded under that name, except the offline model's, which costs nothing.
   */
  alternates?: Readonly<Record<string, BaseChatModel>> | undefined;
}

/** A model's tool bindings: all tools, or a condition's subset and `read_path`, bound once per distinct set. */
function toolBinder(model: BaseChatModel | undefined) {
  if (model !== undefined && typeof model.bindTools !== 'function') {
    throw new Error(`model ${model._llmType()} does not support tool calling (bindTools)`);
  }
  const all = model?.bindTools?.(toolSpecs());
  const subsets = new Map<string, NonNullable<typeof all>>();
  return (tools: readonly string[] | null | undefined, withReadPath: boolean) => {
    if (!model?.bindTools || (!tools && !withReadPath)) return all;
    const key = `${withReadPath ? 'read_path;' : ''}${tools ? [...tools].sort().join(',') : '*'}`;
    let bound = subsets.get(key);
    if (!bound) {
      bound = model.bindTools(toolSpecs(tools, { withReadPath }));
      subsets.set(key, bound);
    }
    return bound;
  };
}

export function createChatNode(model: BaseChatModel | undefined, options: ChatNodeOptions = {}) {
  const configured = { bind: toolBinder(model), name: options.modelName };
  const alternates = new Map(
    Object.entries(options.alternates ?? {}).map(([name, alternate]) => [name, { bind: toolBinder(alternate), name: name === 'offline' ? undefined : name }]),
  );
  const policy = options.policy ?? DEFAULT_MODEL_CALL_POLICY;
  return async (state: AgentState, config: AgentRunConfig): Promise<Command<unknown, AgentUpdate, typeof TOOLS_NODE | typeof END>> => {
    const condition = conditionOf(config);
    const chosen = (condition?.model && alternates.get(condition.model)) || configured;
    const bound = chosen.bind(condition?.tools, pathsOf(config) !== undefined);
    if (bound === undefined) throw new Error('this graph was compiled without a model (state updates only)');
    const view = await workspaceOf(config).read();
    const system = condition?.systemPrompt ? `${buildSystemPrompt(view)}\n\n${condition.systemPrompt}` : buildSystemPrompt(view);
    const input: BaseMessage[] = [new SystemMessage(system), ...state.messages];
    const stepOf: unknown = config.metadata?.langgraph_step;
    const step = typeof stepOf === 'number' ? stepOf : -1;
    const status = (payload: Omit<StatusEventPayload, 'kind'>) => config.writer?.({ kind: 'trellis.status', ...payload } satisfies StatusEventPayload);
    let reply = new ReplyChunks();
    for (let retry = 1; ; retry += 1) {
      reply = new ReplyChunks();
      let hasWritten = false;
      const watchdog = new CallWatchdog(policy, config.signal, () => status({ state: 'waiting' }));
      try {
        // A model that does not stream yields its whole reply as one chunk. `_streamIterator` is what
        // `stream` wraps: the wrapper re-enters the callback context (configuring a callback manager)
        // and races the abort signal for every chunk, and hands chunks over through a web stream. The
        // model's own run keeps its callbacks and the watchdog's signal (the run's, plus the timeout).
        const stream = bound._streamIterator(input, {
          callbacks: config.callbacks,
          metadata: config.metadata,
          tags: config.tags,
          signal: watchdog.signal,
        });
        for await (const chunk of stream) {
          watchdog.alive();
          const text = reply.add(chunk);
          if (text !== '') {
            hasWritten = true;
            config.writer?.({ kind: 'trellis.token', step, text } satisfies TokenEventPayload);
          }
        }
        break;
      } catch (error: unknown) {
        if (config.signal?.aborted) throw error; // stopped: an interruption, not a failure
        const failure = classifyProviderError(error, {
          hasStreamed: watchdog.hasStreamed,
          timedOutAfterS: watchdog.timedOut ? policy.timeoutMs / 1000 : undefined,
          secrets: policy.secrets,
        });
        const reason = describeProviderFailure(failure);
        const delay = hasWritten ? undefined : retryDelayMs(failure, retry, policy);
        if (delay === undefined) throw new ProviderCallError(failure, reason);
        status({
          state: failure.code === 'rate_limited' ? 'rate_limited' : 'retrying',
          retryInS: Math.ceil(delay / 1000),
          retry,
          reason,
        });
        await sleep(delay, config.signal);
      } finally {
        watchdog.stop();
      }
    }
    const response = reply.message();
    if (response === undefined) throw new Error('the model returned no message');
    const usage = (response as Partial<AIMessage>).usage_metadata;
    if (usage !== undefined && chosen.name !== undefined) {
      config.writer?.({
        kind: 'trellis.usage',
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        model: chosen.name,
      } satisfies UsageEventPayload);
    }
    // Some OpenAI-compatible servers reuse one response id; a repeated id would
    // make the reducer replace the earlier message instead of appending.
    const isKnownId = response.id !== undefined && state.messages.some((m) => m.id === response.id);
    const stored = toStoredMessage(response, isKnownId ? randomUUID() : response.id);
    return new Command({ update: { messages: [stored] }, goto: nextAfterChat(stored) });
  };
}

/**
 * What goes into the checkpointer for a model reply: id, content, tool calls
 * and usage. Streaming chunk fields and provider metadata are dropped: they
 * are bulky and no provider needs them back.
 */
export function toStoredMessage(response: BaseMessage, id = response.id): AIMessage {
  const ai = response as Partial<AIMessage>;
  return new AIMessage({
    ...(id === undefined ? {} : { id }),
    content: response.content,
    tool_calls: ai.tool_calls ?? [],
    invalid_tool_calls: ai.invalid_tool_calls ?? [],
    ...(ai.usage_metadata === undefined ? {} : { usage_metadata: ai.usage_metadata }),
  });
}

/** Where the run goes after a reply: its tool calls, if it made any. */
function nextAfterChat(reply: AIMessage): typeof TOOLS_NODE | typeof END {
  const calls = (reply.tool_calls?.length ?? 0) + (reply.invalid_tool_calls?.length ?? 0);
  return calls > 0 ? TOOLS_NODE : END;
}
