// Synthetic Claude Code files, one per pattern met in real sessions (docs/architecture.md,
// "Real transcripts"), with what reading them must give. The files live in ./corpus; other
// packages' tests read them through `corpusFileUrl` (exported as @trellis/transcripts/testing/corpus).
import type { TranscriptFormat } from '../readers/types';

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
      'Two objects glued on one line, a torn line, a non-object, a lone `{`, CRLF, blank lines, an unknown type and a record without a uuid',
    format: 'claude-code',
    leafUuids: ['a2'],
    sidechainLeafUuids: [],
    compactions: 0,
    readerDiagnostics: 6,
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
];

export function corpusFileUrl(file: string): URL {
  return new URL(`./corpus/${file}`, import.meta.url);
}
