import { isBaseMessage, type BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph';

type Serde = BaseCheckpointSaver['serde'];

/**
 * The checkpointer's serializer, writing a list of messages (the `messages` channel) from each
 * message's JSON as it was first written: a turn adds a message or two to a working context of up to
 * forty, and the stock serializer turns all of them into JSON again at every checkpoint. The bytes
 * are the stock serializer's — a JSON array of the same elements — so either serializer reads what
 * the other wrote. A message's JSON is reused only while it still holds the same id, content and
 * tool calls (messages are not changed once in the channel; this guards the cache if one were).
 */
export function reusingMessageJson(inner: Serde): Serde {
  const written = new WeakMap<BaseMessage, { id: unknown; content: unknown; toolCalls: unknown; json: string }>();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const jsonOf = async (message: BaseMessage): Promise<string> => {
    const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
    const known = written.get(message);
    if (known !== undefined && known.id === message.id && known.content === message.content && known.toolCalls === toolCalls) {
      return known.json;
    }
    const [type, bytes] = await inner.dumpsTyped(message);
    if (type !== 'json') throw new Error(`a message serialized as ${type}`);
    const json = decoder.decode(bytes);
    written.set(message, { id: message.id, content: message.content, toolCalls, json });
    return json;
  };
  return {
    dumpsTyped: async (data: unknown) => {
      if (!Array.isArray(data) || data.length === 0 || !data.every((m) => isBaseMessage(m))) return inner.dumpsTyped(data);
      const parts = await Promise.all(data.map(jsonOf));
      return ['json', encoder.encode(`[${parts.join(',')}]`)];
    },
    loadsTyped: (type, data) => inner.loadsTyped(type, data),
  };
}
