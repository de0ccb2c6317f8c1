import { describe, expect, it } from 'vitest';
import { pathToMarkdown } from './markdown';

const emptyWorkspace = { objective: null, document: { title: '', content: '' }, preferences: [], todos: [], artifacts: [] };

describe('pathToMarkdown', () => {
  it('writes a heading per step with its label, the message quoted, tool calls on one line each, the reply', () => {
    const md = pathToMarkdown({
      title: 'Bees',
      steps: [
        { label: '1', messages: [{ role: 'user', content: 'objective: bees\nplease', tool_calls: [], status: 'complete' }] },
        {
          label: '2.1',
          messages: [
            { role: 'user', content: 'go on', tool_calls: [], status: 'complete' },
            {
              role: 'assistant',
              content: 'Done.',
              tool_calls: [{ id: 'c', name: 'add_todo', args: { text: 'buy\nhoney' }, result: 'Todo added: "buy honey".' }],
              status: 'interrupted',
            },
          ],
        },
      ],
      workspace: emptyWorkspace,
    });
    expect(md).toContain('# Bees\n\n## Step 1\n\n**You:**\n\n> objective: bees\n> please\n\n_(no reply)_\n\n## Step 2.1');
    expect(md).toContain('- Tool `add_todo`: text="buy\\nhoney" → Todo added: "buy honey".\n\n**Agent:**\n\nDone.\n\n_(stopped)_');
  });

  it('writes an apply entry as a provenance line with its note, and no "no reply" marker', () => {
    const md = pathToMarkdown({
      title: 'Bees',
      steps: [
        {
          label: '3',
          messages: [
            { role: 'system', content: 'Applied from 2.1: section Findings\n\nthe better one', tool_calls: [], status: 'complete' },
          ],
        },
      ],
      workspace: emptyWorkspace,
    });
    expect(md).toContain('## Step 3\n\n_Applied from 2.1: section Findings_\n\n> the better one\n\n## Final workspace');
  });

  it('says why a reply failed and what the provider counted', () => {
    const md = pathToMarkdown({
      title: 'T',
      steps: [
        {
          label: '1',
          messages: [
            { role: 'user', content: 'hi', tool_calls: [], status: 'complete' },
            { role: 'assistant', content: 'Hal', tool_calls: [], status: 'failed', reason: 'the connection to the provider dropped mid-reply' },
          ],
        },
        {
          label: '2',
          messages: [
            { role: 'user', content: 'again', tool_calls: [], status: 'complete' },
            {
              role: 'assistant',
              content: 'Hello.',
              tool_calls: [],
              status: 'complete',
              usage: { input_tokens: 120, output_tokens: 7, model: 'gpt-4o-mini' },
            },
          ],
        },
      ],
      workspace: emptyWorkspace,
    });
    expect(md).toContain('Hal\n\n_(failed: the connection to the provider dropped mid-reply)_');
    expect(md).toContain('Hello.\n\n_gpt-4o-mini · 120 tokens in, 7 out_');
  });

  it('ends with the final workspace: objective, document, locked preferences, a nested checklist, fenced artifacts', () => {
    const md = pathToMarkdown({
      title: 'T',
      steps: [],
      workspace: {
        objective: 'Write',
        document: { title: 'Draft', content: '# Draft\n\nText' },
        preferences: [
          { id: 'p', key: 'k', position: 0, text: 'short', locked: true },
          { id: 'q', key: 'l', position: 1, text: 'warm', locked: false },
        ],
        todos: [
          { id: 't', key: 'a', position: 0, text: 'outline', done: true, depth: 0 },
          { id: 'u', key: 'b', position: 1, text: 'intro', done: false, depth: 1 },
        ],
        artifacts: [{ id: '1', key: 'x', number: 3, turn_index: 1, kind: 'code', title: 'Snippet', content: 'a ``` b', created_at: '' }],
      },
    });
    expect(md).toContain('## Final workspace\n\n### Objective\n\nWrite\n\n### Document: Draft\n\n# Draft\n\nText');
    expect(md).toContain('### Preferences\n\n- short (locked)\n- warm\n');
    expect(md).toContain('### Todos\n\n- [x] outline\n  - [ ] intro\n');
    expect(md).toContain('#### 3. Snippet (code)\n\n````\na ``` b\n````\n');
  });
});
