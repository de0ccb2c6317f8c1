import { randomUUID } from 'node:crypto';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from './agent';
import { checkpointBytes, countCheckpointThreads, createCheckpointer, setupCheckpointer, type TrellisCheckpointSaver } from './checkpointer';
import { buildAgentGraph } from './graph';
import { OfflineChatModel } from './models/offline';
import { OFFLINE_HELP } from './models/offline-directives';
import { buildSystemPrompt } from './prompts/system';
import { seedThread } from './seed';
import { drain, tokensOf } from './testing/drain';
import { createInMemoryWorkspace } from './testing/in-memory-workspace';
import { ScriptedChatModel } from './testing/scripted-model';

const url = process.env.TRELLIS_TEST_DATABASE_URL!;
let pool: pg.Pool;
let checkpointer: TrellisCheckpointSaver;

beforeAll(async () => {
  await setupCheckpointer({ connectionString: url });
  pool = new pg.Pool({ connectionString: url, max: 6 });
  checkpointer = createCheckpointer({ pool });
});
afterAll(async () => {
  await pool.end();
});

const newThread = () => `th_${randomUUID().replaceAll('-', '')}`;
/** What the model received on its last call. */
const model = (m: ScriptedChatModel) => m.received.at(-1)!;
const shape = (messages: readonly BaseMessage[]) => messages.map((m) => `${m.type}: ${m.text}`);

async function contextOf(threadId: string) {
  const graph = buildAgentGraph({ budget: { maxMessages: 1000 }, checkpointer });
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  return { next: snapshot.next, messages: (snapshot.values as { messages?: BaseMessage[] }).messages ?? [] };
}

describe('a turn with the offline model', () => {
  it('turns directives into tool calls on the live workspace, then streams a summary in several chunks', async () => {
    const model = new OfflineChatModel();
    const agent = createAgent({ checkpointer, model });
    const workspace = createInMemoryWorkspace();
    const threadId = newThread();
    const message = [
      'Let us start.',
      'objective: A field guide to urban birds',
      'doc: # Urban birds',
      '',
      '## Pigeons',
      'Everywhere.',
      'todo: Outline',
      '  todo: Pigeons',
      'done: outline',
      'prefer: British spelling',
      'artifact: Plan | 1. pigeons 2. gulls',
      'append: ## Gulls',
    ].join('\n');

    const { events, result } = await drain(agent.runTurn({ threadId, userMessage: message, workspace }));

    const tools = events.flatMap((e) => (e.type === 'tool' ? [e] : []));
    expect(tools.map((t) => [t.name, t.args])).toEqual([
      ['set_objective', { text: 'A field guide to urban birds' }],
      ['write_document', { mode: 'replace', content: '# Urban birds\n\n## Pigeons\nEverywhere.' }],
      ['add_todo', { text: 'Outline', depth: 0 }],
      ['add_todo', { text: 'Pigeons', depth: 1 }],
      ['complete_todo', { text: 'outline' }],
      ['add_preference', { text: 'British spelling' }],
      ['create_artifact', { kind: 'note', title: 'Plan', content: '1. pigeons 2. gulls' }],
      ['write_document', { mode: 'append', content: '## Gulls' }],
    ]);
    expect(tools.every((t) => !t.isError)).toBe(true);
    expect(result.toolCalls.map((c) => c.name)).toEqual(tools.map((t) => t.name));
    expect(new Set(result.toolCalls.map((c) => c.id)).size).toBe(8);

    expect(workspace.state.objective).toBe('A field guide to urban birds');
    expect(workspace.state.document.content).toBe('# Urban birds\n\n## Pigeons\nEverywhere.\n\n## Gulls');
    expect(workspace.state.todos).toEqual([
      { id: 'td1', text: 'Outline', done: true, depth: 0 },
      { id: 'td2', text: 'Pigeons', done: false, depth: 1 },
    ]);
    expect(workspace.state.preferences.map((p) => p.text)).toEqual(['British spelling']);
    expect(workspace.state.artifacts.map((a) => a.title)).toEqual(['Plan']);

    // Tool events come first (they ran before the reply), then the reply in several chunks.
    const firstToken = events.findIndex((e) => e.type === 'token');
    expect(firstToken).toBe(tools.length);
    const tokens = tokensOf(events);
    expect(tokens.length).toBeGreaterThan(5);
    expect(result.content).toBe(tokens.join(''));
    expect(result.content).toBe(
      'Set the objective, replaced the document, added 2 todos, completed 1 todo, added 1 preference, created 1 artifact and appended 1 paragraph.',
    );
    expect(result.interrupted).toBe(false);

    // The thread is idle and its context holds no system prompt.
    const context = await contextOf(threadId);
    expect(context.next).toEqual([]);
    expect(context.messages.map((m) => m.type)).toEqual(['human', 'ai', ...tools.map(() => 'tool'), 'ai']);
  });

  it('answers a message without directives with the help text', async () => {
    const agent = createAgent({ checkpointer, model: new OfflineChatModel() });
    const { events, result } = await drain(
      agent.runTurn({ threadId: newThread(), userMessage: 'What can you do?', workspace: createInMemoryWorkspace() }),
    );
    expect(events.every((e) => e.type === 'token')).toBe(true);
    expect(result).toEqual({ content: OFFLINE_HELP, toolCalls: [], interrupted: false });
  });

  it('rebuilds the system prompt from the live workspace each call and sends only this thread\'s messages', async () => {
    const model = new OfflineChatModel();
    const agent = createAgent({ checkpointer, model });
    const a = { id: newThread(), ws: createInMemoryWorkspace() };
    const b = { id: newThread(), ws: createInMemoryWorkspace() };
    await drain(agent.runTurn({ threadId: a.id, userMessage: 'todo: A1', workspace: a.ws }));
    await drain(agent.runTurn({ threadId: b.id, userMessage: 'hello from B', workspace: b.ws }));
    a.ws.state.objective = 'edited by hand between turns';
    const before = model.received.length;
    await drain(agent.runTurn({ threadId: a.id, userMessage: 'second A', workspace: a.ws }));

    const calls = model.received.slice(before);
    expect(calls).toHaveLength(1);
    const input = calls[0]!;
    expect(input[0]?.type).toBe('system');
    expect(input[0]?.text).toBe(buildSystemPrompt(await a.ws.read()));
    expect(input[0]?.text).toContain('edited by hand between turns');
    expect(input[0]?.text).toContain('- [x] A1 [td1]'.replace('[x]', '[ ]'));
    const transcript = shape(input.slice(1));
    expect(transcript[0]).toBe('human: todo: A1');
    expect(transcript.at(-1)).toBe('human: second A');
    expect(transcript.join('\n')).not.toContain('hello from B');
    expect(input.slice(1).some((m) => m.type === 'system')).toBe(false);
  });
});

describe('a locked preference', () => {
  it('is never changed: the tool answers the model with the refusal and the run goes on', async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'update_preference', args: { id: 'p1', text: 'American spelling' } },
          { name: 'remove_preference', args: { id: 'p1' } },
          { name: 'update_preference', args: { id: 'p2', text: 'Very short sentences' } },
        ],
      },
      { text: 'I could not change the locked one.' },
    ]);
    const workspace = createInMemoryWorkspace({
      preferences: [
        { id: 'p1', text: 'British spelling', locked: true },
        { id: 'p2', text: 'Short sentences', locked: false },
      ],
    });
    const agent = createAgent({ checkpointer, model });
    const { events, result } = await drain(agent.runTurn({ threadId: newThread(), userMessage: 'use American spelling', workspace }));

    expect(events.filter((e) => e.type === 'tool').map((e) => e.type === 'tool' && [e.name, e.isError, e.result])).toEqual([
      ['update_preference', true, 'Refused: preference p1 is locked'],
      ['remove_preference', true, 'Refused: preference p1 is locked'],
      ['update_preference', false, 'Preference "Short sentences" updated to "Very short sentences".'],
    ]);
    expect(workspace.state.preferences).toEqual([
      { id: 'p1', text: 'British spelling', locked: true },
      { id: 'p2', text: 'Very short sentences', locked: false },
    ]);
    expect(result.content).toBe('I could not change the locked one.');
    const secondCall = model.received[1]!;
    const results = secondCall.filter((m): m is ToolMessage => m instanceof ToolMessage);
    expect(results.map((m) => [m.status, m.text])).toEqual([
      ['error', 'Refused: preference p1 is locked'],
      ['error', 'Refused: preference p1 is locked'],
      ['success', 'Preference "Short sentences" updated to "Very short sentences".'],
    ]);
  });
});

describe('seeding a thread', () => {
  const prefix = [
    { role: 'user' as const, content: 'u1' },
    { role: 'assistant' as const, content: 'a1' },
    { role: 'user' as const, content: 'u2' },
    { role: 'assistant' as const, content: 'a2' },
  ];

  it('makes the next turn send exactly the system prompt, the prefix and the new message', async () => {
    const threadId = newThread();
    await seedThread({ checkpointer, threadId, messages: prefix });
    expect((await contextOf(threadId)).next).toEqual([]);

    const model = new OfflineChatModel();
    const workspace = createInMemoryWorkspace({ objective: 'o' });
    await drain(createAgent({ checkpointer, model }).runTurn({ threadId, userMessage: 'u3', workspace }));

    expect(model.received).toHaveLength(1);
    const input = model.received[0]!;
    expect(input[0]?.text).toBe(buildSystemPrompt(await workspace.read()));
    expect(shape(input.slice(1))).toEqual(['human: u1', 'ai: a1', 'human: u2', 'ai: a2', 'human: u3']);
  });

  it('is safe to repeat: the second seed replaces the first, in one checkpoint', async () => {
    const threadId = newThread();
    await seedThread({ checkpointer, threadId, messages: prefix });
    await seedThread({ checkpointer, threadId, messages: prefix });
    expect(shape((await contextOf(threadId)).messages)).toEqual(['human: u1', 'ai: a1', 'human: u2', 'ai: a2']);
    await seedThread({ checkpointer, threadId, messages: prefix.slice(0, 2) });
    expect(shape((await contextOf(threadId)).messages)).toEqual(['human: u1', 'ai: a1']);
    const { rows } = await pool.query('select count(*)::int as n from langgraph.checkpoints where thread_id = $1', [threadId]);
    expect(rows[0].n).toBe(1);
    await seedThread({ checkpointer, threadId, messages: [] });
    expect(await countCheckpointThreads(pool, 'langgraph', threadId)).toBe(0);
  });

  it('keeps only the budget, starting on a user message', async () => {
    const threadId = newThread();
    const long = Array.from({ length: 101 }, (_, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `m${i}` }));
    await seedThread({ checkpointer, threadId, messages: long, contextBudget: { maxMessages: 8 } });
    expect(shape((await contextOf(threadId)).messages)).toEqual([
      'human: m94', 'ai: m95', 'human: m96', 'ai: m97', 'human: m98', 'ai: m99', 'human: m100',
    ]);
  });
});

describe('aborting a turn', () => {
  it('mid-stream returns interrupted with the partial reply, which the next turn does not see (nor its question)', async () => {
    const model = new OfflineChatModel({ chunkDelayMs: 15 });
    const agent = createAgent({ checkpointer, model });
    const workspace = createInMemoryWorkspace();
    const threadId = newThread();
    const controller = new AbortController();

    const { events, result } = await drain(
      agent.runTurn({ threadId, userMessage: 'hello', workspace, signal: controller.signal }),
      (_event, index) => {
        if (index === 2) controller.abort();
      },
    );
    expect(result.interrupted).toBe(true);
    expect(tokensOf(events)).toHaveLength(3);
    expect(result.content).toBe(tokensOf(events).join(''));
    expect(OFFLINE_HELP.startsWith(result.content)).toBe(true);
    expect(result.content.length).toBeLessThan(OFFLINE_HELP.length);

    const context = await contextOf(threadId);
    expect(context.next).toEqual([]);
    expect(shape(context.messages)).toEqual([]);

    await drain(agent.runTurn({ threadId, userMessage: 'again', workspace }));
    expect(shape(model.received.at(-1)!.slice(1))).toEqual(['human: again']);
  });

  it('before anything ran leaves nothing in the working context', async () => {
    const model = new OfflineChatModel();
    const threadId = newThread();
    const { result } = await drain(
      createAgent({ checkpointer, model }).runTurn({
        threadId,
        userMessage: 'too late',
        workspace: createInMemoryWorkspace(),
        signal: AbortSignal.abort(),
      }),
    );
    expect(result).toEqual({ content: '', toolCalls: [], interrupted: true });
    expect(model.received).toHaveLength(0);
    expect(shape((await contextOf(threadId)).messages)).toEqual([]);
  });

  it('while tools run reports each call that ran once and leaves the attempt out of the context', async () => {
    const controller = new AbortController();
    const model = new ScriptedChatModel([
      { text: 'Adding three.', toolCalls: ['a', 'b', 'c'].map((text) => ({ name: 'add_todo', args: { text, depth: 0 } })) },
      { text: 'never reached' },
      { text: 'next turn' },
    ]);
    const workspace = createInMemoryWorkspace();
    const addTodo = workspace.addTodo.bind(workspace);
    workspace.addTodo = async (input) => {
      if (input.text === 'b') {
        controller.abort(); // the run stops now; this call is still in flight
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return addTodo(input);
    };
    const agent = createAgent({ checkpointer, model });
    const threadId = newThread();

    const { events, result } = await drain(agent.runTurn({ threadId, userMessage: 'add three', workspace, signal: controller.signal }));
    expect(result.interrupted).toBe(true);
    expect(result.toolCalls.map((c) => c.args.text)).toEqual(['a', 'b']);
    expect(events.filter((e) => e.type === 'tool')).toHaveLength(2);
    expect(workspace.state.todos.map((t) => t.text)).toEqual(['a', 'b']);
    expect(result.content).toBe('Adding three.');

    const context = await contextOf(threadId);
    expect(context.next).toEqual([]);
    expect(context.messages).toEqual([]);

    await drain(agent.runTurn({ threadId, userMessage: 'go on', workspace }));
    expect(shape(model.received.at(-1)!.slice(1))).toEqual(['human: go on']);
  });
  it("settles a thread another process's run left mid-tools before this agent's next turn, although this agent's own last run finished there", async () => {
    const workspace = createInMemoryWorkspace();
    const threadId = newThread();
    const here = new ScriptedChatModel([{ text: 'first reply' }, { text: 'after the other process' }]);
    const agent = createAgent({ checkpointer, model: here });
    await drain(agent.runTurn({ threadId, userMessage: 'first', workspace }));

    // Another process: its consumer goes away while the tools run, so nothing settles the thread.
    const there = new ScriptedChatModel([{ text: 'Adding two.', toolCalls: ['a', 'b'].map((text) => ({ name: 'add_todo', args: { text, depth: 0 } })) }]);
    const run = createAgent({ checkpointer, model: there }).runTurn({ threadId, userMessage: 'add two', workspace });
    for (let step = await run.next(); !step.done && step.value.type !== 'tool'; step = await run.next());
    await run.return(undefined as never);
    expect((await contextOf(threadId)).next).not.toEqual([]);

    const { result } = await drain(agent.runTurn({ threadId, userMessage: 'again', workspace }));
    expect(result.content).toBe('after the other process');
    expect(model(here).slice(1).map((m) => m.type)).toEqual(['human', 'ai', 'human', 'ai', 'tool', 'tool', 'human']);
  });
});

describe('a failing tool', () => {
  it('fails the run, and the next turn finds the thread idle, without the failed attempt', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'set_objective', args: { text: 'x' } }] },
      { text: 'after the failure' },
    ]);
    const workspace = createInMemoryWorkspace();
    workspace.setObjective = () => Promise.reject(new Error('connection reset'));
    const agent = createAgent({ checkpointer, model });
    const threadId = newThread();

    await expect(drain(agent.runTurn({ threadId, userMessage: 'set it', workspace }))).rejects.toThrow('connection reset');
    expect((await contextOf(threadId)).next).toEqual([]);

    const { result } = await drain(agent.runTurn({ threadId, userMessage: 'again', workspace }));
    expect(result.content).toBe('after the failure');
    expect(model.received.at(-1)!.slice(1).map((m) => m.type)).toEqual(['human']);
  });
});

describe('checkpoint storage', () => {
  // ~500 characters of varied prose per message, so TOAST compression does not flatter the numbers.
  const words = 'pigeon gull sparrow starling crow magpie roof ledge park feeder winter spring nest flock street bridge river dusk dawn chimney'.split(' ');
  const paragraph = (turn: number) => {
    let seed = turn * 7919 + 17;
    const out: string[] = [];
    while (out.join(' ').length < 500) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      out.push(`${words[seed % words.length]}${seed % 97}`);
    }
    return out.join(' ');
  };

  async function measure(options: { keepHistory: boolean }) {
    const saver = createCheckpointer({ pool, ...options });
    const agent = createAgent({ checkpointer: saver, model: new OfflineChatModel(), contextBudget: { maxMessages: 40 } });
    const workspace = createInMemoryWorkspace();
    const threadId = newThread();
    const bytes: Record<number, number> = {};
    for (let turn = 1; turn <= 60; turn += 1) {
      await drain(agent.runTurn({ threadId, userMessage: `todo: step ${turn}\n${paragraph(turn)}`, workspace }));
      if (turn % 20 === 0) bytes[turn] = await checkpointBytes(pool, 'langgraph', threadId);
    }
    return { bytes: bytes as { 20: number; 40: number; 60: number }, threadId };
  }

  it('adds the same bytes per turn in turns 40–60 as in turns 20–40 when history is kept (linear total)', async () => {
    const { bytes, threadId } = await measure({ keepHistory: true });
    // Durability "exit": one checkpoint per turn, not one per graph step.
    const { rows } = await pool.query('select count(*)::int as n from langgraph.checkpoints where thread_id = $1', [threadId]);
    expect(rows[0].n).toBe(60);
    const early = bytes[40] - bytes[20];
    const late = bytes[60] - bytes[40];
    console.info(JSON.stringify({ history: 'kept', bytes, perTurn: { '20-40': early / 20, '40-60': late / 20 } }));
    expect(late / early).toBeLessThan(1.5);
    expect(early / late).toBeLessThan(1.5);
  });

  it('stays bounded by the budget when superseded checkpoints are pruned (the default)', async () => {
    const { bytes, threadId } = await measure({ keepHistory: false });
    console.info(JSON.stringify({ history: 'pruned', bytes }));
    expect(bytes[60] / bytes[20]).toBeLessThan(1.5);
    const { rows } = await pool.query('select count(*)::int as n from langgraph.checkpoints where thread_id = $1', [threadId]);
    expect(rows[0].n).toBe(1);
  });
});

describe("a thread's next turn", () => {
  /** A checkpointer on a pool of its own (a process of its own), counting the queries it sends. */
  function processOf() {
    const own = new pg.Pool({ connectionString: url, max: 2 });
    const sent: string[] = [];
    const query = own.query.bind(own) as (...args: unknown[]) => unknown;
    own.query = ((...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
      sent.push(typeof text === 'string' ? text : 'a query object');
      return query(...args);
    }) as typeof own.query;
    return { pool: own, sent, saver: createCheckpointer({ pool: own }) };
  }

  it('numbered right after the turn this agent finished asks the checkpointer nothing before its run; after a gap it asks', async () => {
    const one = processOf();
    try {
      const threadId = newThread();
      const workspace = createInMemoryWorkspace();
      const agent = createAgent({ checkpointer: one.saver, model: new ScriptedChatModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]) });
      await drain(agent.runTurn({ threadId, userMessage: 'first', workspace, turnIndex: 1 }));
      one.sent.length = 0;
      await drain(agent.runTurn({ threadId, userMessage: 'second', workspace, turnIndex: 2 }));
      // Only the checkpoint the run ends on goes out.
      expect(one.sent).toHaveLength(1);
      expect(one.sent[0]).toMatch(/insert into "langgraph"\.checkpoints/);
      one.sent.length = 0;
      const { result } = await drain(agent.runTurn({ threadId, userMessage: 'fourth', workspace, turnIndex: 4 }));
      expect(one.sent).toHaveLength(2);
      expect(one.sent[0]).toMatch(/checkpoint_writes/);
      expect(result.content).toBe('c');
    } finally {
      await one.pool.end();
    }
  });

  it("sees another process's turn numbered in between, although its own last turn is remembered", async () => {
    const [one, two] = [processOf(), processOf()];
    try {
      const threadId = newThread();
      const workspace = createInMemoryWorkspace();
      const here = new ScriptedChatModel([{ text: 'reply one' }, { text: 'reply three' }]);
      const agent = createAgent({ checkpointer: one.saver, model: here });
      await drain(agent.runTurn({ threadId, userMessage: 'one', workspace, turnIndex: 1 }));
      const other = createAgent({ checkpointer: two.saver, model: new ScriptedChatModel([{ text: 'reply two' }]) });
      await drain(other.runTurn({ threadId, userMessage: 'two', workspace, turnIndex: 2 }));
      await drain(agent.runTurn({ threadId, userMessage: 'three', workspace, turnIndex: 3 }));
      expect(shape(model(here).slice(1))).toEqual(['human: one', 'ai: reply one', 'human: two', 'ai: reply two', 'human: three']);
    } finally {
      await Promise.all([one.pool.end(), two.pool.end()]);
    }
  });
});
