// The real provider classes (ChatOpenAI, ChatAnthropic) through the whole
// agent, against a local server speaking their streaming protocols: tool
// calls, token streaming and abort work on this Node version.
import { randomUUID } from 'node:crypto';
import type { BaseMessage } from '@langchain/core/messages';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agent';
import { createCheckpointer, setupCheckpointer, type TrellisCheckpointSaver } from '../checkpointer';
import { drain, tokensOf } from '../testing/drain';
import { startFakeProvider } from '../testing/fake-provider-server';
import { createInMemoryWorkspace } from '../testing/in-memory-workspace';
import { buildAgentGraph } from '../graph';
import { createModel } from './index';

const url = process.env.TRELLIS_TEST_DATABASE_URL!;
let pool: pg.Pool;
let checkpointer: TrellisCheckpointSaver;

beforeAll(async () => {
  await setupCheckpointer({ connectionString: url });
  pool = new pg.Pool({ connectionString: url, max: 4 });
  checkpointer = createCheckpointer({ pool });
});
afterAll(async () => {
  await pool.end();
});

const newThread = () => `th_${randomUUID().replaceAll('-', '')}`;

describe.each(['openai', 'anthropic'] as const)('the %s provider', (provider) => {
  const modelFor = (baseUrl: string) =>
    provider === 'openai'
      ? createModel({ provider, baseUrl, model: 'local-model' })
      : createModel({ provider, baseUrl, apiKey: 'test-key', model: 'claude-test' });

  it('calls workspace tools and streams the reply', async () => {
    const server = await startFakeProvider(provider, [
      { text: 'Adding it.', toolCalls: [{ id: 'call_a', name: 'add_todo', args: { text: 'Outline', depth: 1 } }] },
      { text: 'Added the outline todo under the first item.' },
    ]);
    try {
      const workspace = createInMemoryWorkspace({ preferences: [{ id: 'p1', text: 'Be brief', locked: true }] });
      const agent = createAgent({ checkpointer, model: modelFor(server.url) });
      const threadId = newThread();
      const { events, result } = await drain(agent.runTurn({ threadId, userMessage: 'add an outline todo', workspace }));

      expect(workspace.state.todos).toEqual([{ id: 'td1', text: 'Outline', done: false, depth: 1 }]);
      expect(result.toolCalls.map((c) => [c.name, c.args, c.isError])).toEqual([['add_todo', { text: 'Outline', depth: 1 }, false]]);
      expect(tokensOf(events).length).toBeGreaterThan(5);
      expect(result.content).toBe('Adding it.\n\nAdded the outline todo under the first item.');

      // Both fake responses carry the same id; the context still keeps both replies.
      const graph = buildAgentGraph({ budget: { maxMessages: 40 }, checkpointer });
      const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
      expect((snapshot.values as { messages: BaseMessage[] }).messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai']);

      expect(server.requests).toHaveLength(2);
      const [first, second] = server.requests.map((r) => JSON.stringify(r.body));
      expect(first).toContain('LOCKED — never change');
      expect(first).toContain('"add_todo"');
      expect(first).toContain('Nesting level');
      expect(second).toContain('Todo added at depth 1');
    } finally {
      await server.close();
    }
  });

  it('stops the request when the turn is aborted', async () => {
    const server = await startFakeProvider(provider, [{ text: 'one two three four five six seven eight nine ten', delayMs: 40 }]);
    try {
      const controller = new AbortController();
      const agent = createAgent({ checkpointer, model: modelFor(server.url) });
      const { events, result } = await drain(
        agent.runTurn({ threadId: newThread(), userMessage: 'count', workspace: createInMemoryWorkspace(), signal: controller.signal }),
        (event) => {
          if (event.type === 'token' && event.text.startsWith('two')) controller.abort();
        },
      );
      expect(result.interrupted).toBe(true);
      expect(result.content).toBe(tokensOf(events).join(''));
      expect(result.content.startsWith('one two')).toBe(true);
      expect(result.content).not.toContain('ten');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.disconnects).toBe(1);
    } finally {
      await server.close();
    }
  });
});
