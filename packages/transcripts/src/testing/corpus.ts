// Synthetic Claude Code files, one per pattern met in real sessions (docs/architecture.md,
// "Real transcripts"), with what reading them must give. The files live in ./corpus; other
// packages' tests read them through `corpusFileUrl` (exported as @trellis/transcripts/testing/corpus).
import type { TranscriptFormat } from '../readers/types';
import type { Diagnostic } from '../types';

export interface CorpusFile {
  file: string;
  /** The real pattern the file reproduces. */
  pattern: string;
  format: TranscriptFormat;
  /** Leaves of the main conversation, in the inspector's order. */
  leafUuids: readonly string[];
  /** Leaves of the sidechain records, inspected on their own. */
  sidechainLeafUuids: readonly string[];
  compactions: number;
  readerDiagnostics: number;
  /** The inspector's diagnostics on the main conversation (none when absent). */
  inspectorDiagnostics?: readonly Diagnostic[];
  /** Records folded into an earlier identical record (re-appended chains). */
  foldedDuplicates?: number;
  /** Replies cut by an API error and streamed again, as `{ uuid, parentUuid }`. */
  alternativeReplies?: readonly { uuid: string; parentUuid: string }[];
  /** A subagent file read as its one conversation. */
  isSubagentFile?: boolean;
}

export const TRANSCRIPT_CORPUS: readonly CorpusFile[] = [
  {
    file: 'parallel-fan-out.jsonl',
    pattern:
      'Four turns; one message writes text → tool_use A → B → C, each result on its own tool_use, progress for the next tool below the previous result, and another tool_use of the same message.id after the results; then two parallel calls answered out of order',
    format: 'claude-code',
    leafUuids: ['t4a'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'interleaved-results.jsonl',
    pattern:
      'Four parallel calls whose results chain through progress records of other calls, then a second round of the same message.id with two more calls',
    format: 'claude-code',
    leafUuids: ['a7'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'interrupted-tool-use.jsonl',
    pattern:
      'A rejected tool call, two rejected parallel calls, each followed by "[Request interrupted by user for tool use]", and a reply interrupted mid-answer',
    format: 'claude-code',
    leafUuids: ['i3'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'exit-after-reply.jsonl',
    pattern: 'A reply, the local-command caveat, `/exit` and its "See ya!" output',
    format: 'claude-code',
    leafUuids: ['o1'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'meta-caveats.jsonl',
    pattern:
      'Meta caveats around `/model`, a custom `/review` command with its expanded body, bash mode and `/cost` on stderr',
    format: 'claude-code',
    leafUuids: ['a3'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'sidechains-inline.jsonl',
    pattern: 'A Task sub-agent written inline with isSidechain between the tool call and its result',
    format: 'claude-code',
    leafUuids: ['a2'],
    sidechainLeafUuids: ['s4'],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'two-sessions.jsonl',
    pattern: 'Two sessions (two sessionIds, two roots) appended to one file, interleaved',
    format: 'claude-code',
    leafUuids: ['y4', 'x4'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'compaction.jsonl',
    pattern:
      'An automatic compaction and a manual `/compact`: compact_boundary roots naming their logical parent, each with its summary',
    format: 'claude-code',
    leafUuids: ['a4'],
    sidechainLeafUuids: [],
    compactions: 2,
    readerDiagnostics: 0,
  },
  {
    file: 'glued-and-malformed.jsonl',
    pattern:
      'Two objects glued on one line, a torn line, a non-object, a lone `{`, CRLF, blank lines, an unknown type (skipped and counted, not damage) and a record without a uuid',
    format: 'claude-code',
    leafUuids: ['a2'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 5,
  },
  {
    file: 'genuine-forks.jsonl',
    pattern: 'A re-asked prompt and a second reply: real forks that must stay forks',
    format: 'claude-code',
    leafUuids: ['a2', 'a2b', 'a1b'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'reappended-chains.jsonl',
    pattern:
      'Long tail, class 1: after an API error and an interrupt, the conversation is written again under new uuids (identical content and timestamps), once from the root and once from the middle',
    format: 'claude-code',
    leafUuids: ['a4'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
    foldedDuplicates: 6,
  },
  {
    file: 'retried-stream.jsonl',
    pattern:
      'Long tail, class 2: a thinking-only attempt cut by api_error, a visible-text attempt cut by a synthetic "API Error: 524" reply, and the retry that goes on',
    format: 'claude-code',
    leafUuids: ['a7'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
    alternativeReplies: [{ uuid: 'a2', parentUuid: 'u1' }],
  },
  {
    file: 'dead-end-system.jsonl',
    pattern:
      'Long tail, class 3: informational, local command output, away summary and turn duration system records written beside a tool result and after the reply',
    format: 'claude-code',
    leafUuids: ['a2'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'continued-session.jsonl',
    pattern: "Long tail, class 4: the first record's parent is the previous file's last record",
    format: 'claude-code',
    leafUuids: ['a2'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
    inspectorDiagnostics: [
      { kind: 'missing-parent', childUuid: 'u1', missingParentUuid: 'previous-file-last-record' },
    ],
  },
  {
    file: 'compaction-elsewhere.jsonl',
    pattern: 'Long tail, class 4: a compaction whose logical parent is in another file',
    format: 'claude-code',
    leafUuids: ['a1'],
    sidechainLeafUuids: [],
    compactions: 1,
    readerDiagnostics: 0,
    inspectorDiagnostics: [
      { kind: 'missing-parent', childUuid: 'b1', missingParentUuid: 'record-in-an-older-file' },
    ],
  },
  {
    file: 'plan-mode-orphan.jsonl',
    pattern:
      'Long tail, class 4: an orphan record left by a plan-mode session at the head of the file, then the conversation from its own root',
    format: 'claude-code',
    leafUuids: ['a2'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
    inspectorDiagnostics: [
      { kind: 'missing-parent', childUuid: 'p1', missingParentUuid: 'plan-mode-session-record' },
    ],
  },
  {
    file: 'subagent-run.jsonl',
    pattern:
      'Long tail, class 5: a subagents/agent-*.jsonl file: a fork-context-ref line, every record a sidechain, three parallel results whose parents were never written',
    format: 'claude-code',
    leafUuids: ['s6'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
    isSubagentFile: true,
  },
  {
    file: 'dead-end-summaries.jsonl',
    pattern:
      'Long tail, class 6: summary records naming a local-command dead end (caveat, /model, its output on a root of their own) and the conversation',
    format: 'claude-code',
    leafUuids: ['a2'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'subagent-resumed.jsonl',
    pattern:
      'Real corpus: a subagent run resumed twice; its first reply names a prompt record never written, its records are written again under the same uuids (the copy naming the prompt), and the resumed part starts below a record never written',
    format: 'claude-code',
    leafUuids: ['s9'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
    isSubagentFile: true,
  },
  {
    file: 'compaction-summary-root.jsonl',
    pattern:
      'Real corpus: Claude Code 1.0 compaction, a compact-summary root naming no logical parent, after records continuing the previous file',
    format: 'claude-code',
    leafUuids: ['a1'],
    sidechainLeafUuids: [],
    compactions: 1,
    readerDiagnostics: 0,
    inspectorDiagnostics: [
      { kind: 'missing-parent', childUuid: 'r0', missingParentUuid: 'previous-file-record' },
    ],
  },
  {
    file: 'fan-out-later-round.jsonl',
    pattern:
      "Real corpus: a message's second round of tool calls hangs below the first round's first result and is answered before the first round's last result, through which the conversation goes on",
    format: 'claude-code',
    leafUuids: ['a2'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'dead-end-branches.jsonl',
    pattern:
      'Real corpus: dead ends beside the conversation: `/exit` after a local-command caveat the session was resumed from, a tool result left beside a `/rename` through which the conversation goes on, and a `continue` answered only by thinking before the session was resumed above it',
    format: 'claude-code',
    leafUuids: ['a5'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
  {
    file: 'local-command-only.jsonl',
    pattern:
      'Real corpus: a file holding only an informational notice and a `/login` local command, named by a summary record: no conversation',
    format: 'claude-code',
    leafUuids: [],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 0,
  },
];

export function corpusFileUrl(file: string): URL {
  return new URL(`./corpus/${file}`, import.meta.url);
}
