// Hostile transcripts for benches and load tests (docs/architecture.md, "Uploads cannot hurt
// anyone else"): the inputs that once stalled the server, built as text. Deterministic and
// pure; exported as @trellis/transcripts/testing/worst-case.

/** `count` Claude Code records sharing one uuid, each naming a different parent (~190 bytes each). */
export function sharedUuidTranscript(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(
      JSON.stringify({
        type: 'user',
        uuid: 'same-uuid',
        parentUuid: `parent-${i}`,
        sessionId: 'worst-case',
        timestamp: '2025-01-01T00:00:00.000Z',
        isSidechain: false,
        message: { role: 'user', content: `copy ${i} of one record` },
      }),
    );
  }
  return lines.join('\n');
}

/** `count` lines holding a lone `{`. */
export function openBraceLines(count: number): string {
  return '{\n'.repeat(count);
}

/** One record whose payload is nested `depth` arrays deep. */
export function deeplyNestedLine(depth: number): string {
  return `{"type":"user","uuid":"deep","parentUuid":null,"message":{"role":"user","content":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}

/** One root with `count` prompts below it: `count` leaves. */
export function manyLeavesTranscript(count: number): string {
  const lines = [JSON.stringify(claudeUser('root', null, 'start'))];
  for (let i = 0; i < count; i++)
    lines.push(JSON.stringify(claudeUser(`leaf-${i}`, 'root', `question ${i}`)));
  return lines.join('\n');
}

/**
 * A long Claude Code session of parallel tool calls, about `targetBytes` of UTF-8: every turn
 * one message with three tool calls, progress below the results, a second round of the same
 * message.id, and a reply. One leaf however long it grows.
 */
export function fanOutSessionTranscript(targetBytes: number): string {
  const lines: string[] = [];
  let bytes = 0;
  let parent: string | null = null;
  const push = (record: Record<string, unknown>) => {
    const line = JSON.stringify(record);
    lines.push(line);
    bytes += line.length + 1;
  };
  for (let turn = 0; bytes < targetBytes; turn++) {
    const id = (name: string) => `${turn}-${name}`;
    const message = `msg-${turn}`;
    push(claudeUser(id('prompt'), parent, `Check packages ${turn} in parallel and report`));
    let previous = id('prompt');
    const calls = ['a', 'b', 'c'];
    for (const call of calls) {
      push(claudeToolUse(id(call), previous, message, `tool-${turn}-${call}`));
      previous = id(call);
    }
    let lastResult: string | undefined;
    for (const call of calls) {
      if (lastResult !== undefined)
        push(claudeProgress(id(`progress-${call}`), lastResult, `tool-${turn}-${call}`));
      push(
        claudeResult(id(`result-${call}`), id(call), `tool-${turn}-${call}`, `output of ${call} `.repeat(8)),
      );
      lastResult = id(`result-${call}`);
    }
    push(claudeToolUse(id('d'), lastResult!, message, `tool-${turn}-d`));
    push(claudeResult(id('result-d'), id('d'), `tool-${turn}-d`, 'tests pass'));
    push(claudeText(id('reply'), id('result-d'), `reply-${turn}`, `Turn ${turn}: all packages are fine.`));
    parent = id('reply');
  }
  return lines.join('\n');
}

function claudeBase(uuid: string, parentUuid: string | null, type: string): Record<string, unknown> {
  return {
    parentUuid,
    isSidechain: false,
    userType: 'external',
    cwd: 'workspace',
    sessionId: 'worst-case',
    version: '2.0.0',
    type,
    uuid,
    timestamp: '2025-01-01T00:00:00.000Z',
  };
}

function claudeUser(uuid: string, parentUuid: string | null, text: string): Record<string, unknown> {
  return { ...claudeBase(uuid, parentUuid, 'user'), message: { role: 'user', content: text } };
}

function claudeToolUse(uuid: string, parentUuid: string, messageId: string, toolId: string) {
  return {
    ...claudeBase(uuid, parentUuid, 'assistant'),
    message: {
      id: messageId,
      role: 'assistant',
      content: [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: 'npm test' } }],
    },
  };
}

function claudeText(uuid: string, parentUuid: string, messageId: string, text: string) {
  return {
    ...claudeBase(uuid, parentUuid, 'assistant'),
    message: { id: messageId, role: 'assistant', content: [{ type: 'text', text }] },
  };
}

function claudeResult(uuid: string, parentUuid: string, toolId: string, output: string) {
  return {
    ...claudeBase(uuid, parentUuid, 'user'),
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: output }] },
  };
}

function claudeProgress(uuid: string, parentUuid: string, toolId: string) {
  return {
    ...claudeBase(uuid, parentUuid, 'progress'),
    data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
    toolUseID: toolId,
  };
}
