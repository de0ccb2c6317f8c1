import { describe, expect, it } from 'vitest';
import { documentToMarkdown, nestHeadings } from './document-markdown';
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
    expect(md).toContain('## How this document was made\n\n### Step 1\n\n**You:**\n\n> objective: bees\n> please\n\n_(no reply)_\n\n### Step 2.1');
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
    expect(md).toContain('### Step 3\n\n_Applied from 2.1: section Findings_\n\n> the better one\n\n## Workspace');
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

  it('opens with the document under the title, its headings nested below it, and ends with the workspace', () => {
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
    expect(md.startsWith('# Draft\n\nText\n\n## How this document was made')).toBe(true);
    expect(md).toContain('## Workspace\n\n### Objective\n\nWrite\n\n### Preferences');
    expect(md).toContain('### Preferences\n\n- short (locked)\n- warm\n');
    expect(md).toContain('### Todos\n\n- [x] outline\n  - [ ] intro\n');
    expect(md).toContain('#### 3. Snippet (code)\n\n````\na ``` b\n````\n');
  });
});

describe('the outline of an export', () => {
  it('nests the replies\' headings under their step and keeps code fences untouched', () => {
    const md = pathToMarkdown({
      title: '## 3. Findings…',
      steps: [
        {
          label: '1',
          messages: [
            { role: 'user', content: 'write it', tool_calls: [], status: 'complete' },
            { role: 'assistant', content: '# Plan\n\n```md\n# not a heading\n```\n\n## Details', tool_calls: [], status: 'complete' },
          ],
        },
      ],
      workspace: { ...emptyWorkspace, document: { title: '', content: '# Review\n\n## 1. Intro\n\ntext' } },
    });
    const untitled = pathToMarkdown({ title: '## 3. Findings…', steps: [], workspace: { ...emptyWorkspace, document: { title: '', content: 'text\n\n# Part' } } });
    expect(untitled.startsWith('# 3. Findings\n\ntext\n\n## Part\n\n## How this document was made')).toBe(true);
    expect(md.startsWith('# Review\n\n## 1. Intro\n\ntext\n\n## How this document was made')).toBe(true);
    expect(md).toContain('**Agent:**\n\n#### Plan\n\n```md\n# not a heading\n```\n\n##### Details');
  });

  it('never nests deeper than level 6', () => {
    expect(nestHeadings('# a\n###### b', 3)).toBe('### a\n###### b');
  });
});

describe('documentToMarkdown', () => {
  it('is the document as written when it opens with its one top heading', () => {
    expect(documentToMarkdown({ pathTitle: 'P', document: { title: '', content: '# Review\n\n## Intro\ntext\n' } })).toBe('# Review\n\n## Intro\ntext\n');
  });

  it('puts a clean heading first otherwise, from the document title or the path title', () => {
    expect(documentToMarkdown({ pathTitle: 'append: **Bees**', document: { title: '', content: 'Some text.\n\n# Part\n' } })).toBe(
      '# Bees\n\nSome text.\n\n## Part\n',
    );
    expect(documentToMarkdown({ pathTitle: 'P', document: { title: 'Grant', content: '' } })).toBe('# Grant\n');
  });
});
