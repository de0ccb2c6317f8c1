import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_TOOLS } from '../tools/index';
import { depthOf, directiveToToolCall, OFFLINE_HELP, parseDirectives, planOfflineReply, splitIntoChunks } from './offline-directives';
import { withRefsNote } from '@trellis/domain';

const allTools = new Set(WORKSPACE_TOOLS.map((t) => t.name));

describe('parseDirectives', () => {
  it('reads one directive per line and ignores chat around them', () => {
    const message = [
      'Hi! Please do this:',
      'objective: A guide to urban birds',
      'prefer: British spelling',
      'todo: Outline',
      'done: outline',
      'artifact: Plan | step one',
      'Thanks.',
    ].join('\n');
    expect(parseDirectives(message)).toEqual([
      { kind: 'objective', text: 'A guide to urban birds' },
      { kind: 'prefer', text: 'British spelling' },
      { kind: 'todo', text: 'Outline', depth: 0 },
      { kind: 'done', text: 'outline' },
      { kind: 'artifact', title: 'Plan', content: 'step one\nThanks.' },
    ]);
  });

  it('takes todo depth from indentation: two spaces or one tab per level', () => {
    const message = 'todo: A\n  todo: B\n    todo: C\n\ttodo: D\n   todo: E';
    expect(parseDirectives(message).map((d) => (d.kind === 'todo' ? d.depth : -1))).toEqual([0, 1, 2, 1, 1]);
    expect(depthOf(' '.repeat(40))).toBe(8);
  });

  it('gives doc the rest of the line and the following lines up to the next directive', () => {
    const message = 'doc: # Title\n\nFirst paragraph.\n  indented line\n\ntodo: Review\nappend:\nMore text.\n';
    expect(parseDirectives(message)).toEqual([
      { kind: 'doc', content: '# Title\n\nFirst paragraph.\n  indented line' },
      { kind: 'todo', text: 'Review', depth: 0 },
      { kind: 'append', content: 'More text.' },
    ]);
  });

  it('is case-insensitive on keywords, tolerates CRLF, and drops empty directives', () => {
    expect(parseDirectives('TODO: x\r\nObjective :  y \r\nprefer:\r\ndone:   ')).toEqual([
      { kind: 'todo', text: 'x', depth: 0 },
      { kind: 'objective', text: 'y' },
    ]);
  });

  it('treats an artifact without a bar as a title with an empty body', () => {
    expect(parseDirectives('artifact: Just a title')).toEqual([{ kind: 'artifact', title: 'Just a title', content: '' }]);
  });

  it('finds nothing in ordinary prose', () => {
    expect(parseDirectives('Could you make the intro shorter? The todo list is fine.')).toEqual([]);
  });
});

describe('directiveToToolCall', () => {
  it('maps each directive to a tool whose schema accepts its arguments', () => {
    const directives = parseDirectives(
      'objective: o\ndoc: d\nappend: a\nprefer: p\n  todo: t\ndone: t\nartifact: T | c',
    );
    const calls = directives.map(directiveToToolCall);
    expect(calls.map((c) => c.name)).toEqual([
      'set_objective',
      'write_document',
      'write_document',
      'add_preference',
      'add_todo',
      'complete_todo',
      'create_artifact',
    ]);
    for (const call of calls) {
      const tool = WORKSPACE_TOOLS.find((t) => t.name === call.name)!;
      expect(tool.schema.safeParse(call.args).success).toBe(true);
    }
    expect(calls[2]?.args).toEqual({ mode: 'append', content: 'a' });
    expect(calls[4]?.args).toEqual({ text: 't', depth: 1 });
  });
});

describe('planOfflineReply', () => {
  const system = new SystemMessage('workspace');

  it('turns the last user message into tool calls, with no text', () => {
    const reply = planOfflineReply([system, new HumanMessage('old: x'), new AIMessage('ok'), new HumanMessage('todo: a')], allTools);
    expect(reply).toEqual({ text: '', toolCalls: [{ name: 'add_todo', args: { text: 'a', depth: 0 } }] });
  });

  it('calls only tools that were bound', () => {
    const reply = planOfflineReply([new HumanMessage('todo: a\nprefer: b')], new Set(['add_preference']));
    expect(reply.toolCalls.map((c) => c.name)).toEqual(['add_preference']);
    expect(planOfflineReply([new HumanMessage('todo: a')], new Set()).toolCalls).toEqual([]);
  });

  it('counts tool results in one sentence, refusals included, without repeating each result', () => {
    const reply = planOfflineReply(
      [
        new HumanMessage('prefer: x'),
        new AIMessage({ content: '', tool_calls: [{ id: '1', name: 'add_preference', args: { text: 'x' } }, { id: '2', name: 'update_preference', args: {} }] }),
        new ToolMessage({ tool_call_id: '1', content: 'Preference pf1 added: "x".' }),
        new ToolMessage({ tool_call_id: '2', content: 'Refused: preference pf0 is locked', status: 'error' }),
      ],
      allTools,
    );
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toBe('Added 1 preference; I could not make 1 change.');
  });

  it('names a whole refusal, a replaced document and the objective without a count', () => {
    const refused = planOfflineReply(
      [new AIMessage({ content: '', tool_calls: [{ id: '1', name: 'add_todo', args: {} }] }), new ToolMessage({ tool_call_id: '1', content: 'no', status: 'error' })],
      allTools,
    );
    expect(refused.text).toBe('I could not make 1 change.');
    const calls = [
      { id: '1', name: 'write_document', args: { mode: 'replace', content: 'x' } },
      { id: '2', name: 'set_objective', args: { text: 'y' } },
    ];
    const done = planOfflineReply([new AIMessage({ content: '', tool_calls: calls }), ...calls.map((c) => new ToolMessage({ tool_call_id: c.id, content: 'ok' }))], allTools);
    expect(done.text).toBe('Replaced the document and set the objective.');
  });

  it.each([40, 200, 1_000])('plans every one of %i directives, then counts their results in one sentence', (count) => {
    const lines = Array.from({ length: count }, (_, i) => `todo: Item ${i}`);
    const human = new HumanMessage(['append: One.', '', 'Two.', ...lines, 'append: Three.'].join('\n'));
    const plan = planOfflineReply([system, human], allTools);
    expect(plan.toolCalls).toHaveLength(count + 2);
    const calls = plan.toolCalls.map((c, i) => ({ id: `c${i}`, ...c }));
    const results = calls.map((c) => new ToolMessage({ tool_call_id: c.id, content: 'ok' }));
    const reply = planOfflineReply([system, human, new AIMessage({ content: '', tool_calls: calls }), ...results], allTools);
    expect(reply).toEqual({ text: `Appended 3 paragraphs and added ${count} todos.`, toolCalls: [] });
  });

  it('answers with the directive help when there is nothing to do', () => {
    expect(planOfflineReply([system, new HumanMessage('hello')], allTools)).toEqual({ text: OFFLINE_HELP, toolCalls: [] });
    expect(OFFLINE_HELP).toMatch(/objective:.*doc:.*append:.*prefer:.*todo:.*done:.*artifact:/s);
  });
});

describe('splitIntoChunks', () => {
  it('splits into several word chunks that concatenate back to the text', () => {
    const text = '  Done: 2 changes.\n\n- one\n- two ';
    const chunks = splitIntoChunks(text);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(text);
    expect(splitIntoChunks('')).toEqual([]);
    expect(splitIntoChunks('   ')).toEqual(['   ']);
  });
});

describe('the offline model with refs', () => {
  const ref = { thread_id: 'th_b', turn: 4, label: '4.1' };
  const tools = new Set(['write_document', 'add_todo', 'read_path']);
  const question = new HumanMessage(withRefsNote('append from 4.1: Methods\ntodo: Compare', [ref]));
  const answer = JSON.stringify({ path: '4.1', thread_id: 'th_b', turn: 4, title: 'Drones', document: { title: 'R', content: '# R\n\n## Methods\n\nBy drone.\n\n## Notes\n\nLater.\n' }, todos: [] });

  it('reads each ref once first, then copies the section and runs the other directives, then names the label', () => {
    expect(planOfflineReply([question], tools)).toEqual({ text: '', toolCalls: [{ name: 'read_path', args: { thread_id: 'th_b', turn: 4 } }] });
    const read = new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read_path', args: { thread_id: 'th_b', turn: 4 } }] });
    const result = new ToolMessage({ tool_call_id: 'c1', name: 'read_path', content: answer });
    const afterRead = planOfflineReply([question, read, result], tools);
    expect(afterRead.toolCalls).toEqual([
      { name: 'write_document', args: { mode: 'append', content: '## Methods\n\nBy drone.' } },
      { name: 'add_todo', args: { text: 'Compare', depth: 0 } },
    ]);
    const wrote = new AIMessage({ content: '', tool_calls: [{ id: 'c2', name: 'write_document', args: {} }] });
    const done = new ToolMessage({ tool_call_id: 'c2', name: 'write_document', content: 'Appended 20 characters to the document.' });
    expect(planOfflineReply([question, read, result, wrote, done], tools).text).toMatch(/^I read 4\.1 \(“Drones”, step 4\)/);
  });

  it('without read_path bound, never reads: the refs note is plain text to it', () => {
    const plan = planOfflineReply([question], new Set(['write_document']));
    expect(plan.toolCalls.some((c) => c.name === 'read_path')).toBe(false);
  });
});
