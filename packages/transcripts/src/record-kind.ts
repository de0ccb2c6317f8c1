// What a record is, for a reader of the conversation (an importer, a card, a title): one closed
// set of kinds over ChatRecord, so callers never re-derive Claude Code's bookkeeping from
// subtypes. The inspector itself only distinguishes prompts and neutral records.
import { isNeutralRecord } from './neutral';
import { isUserPrompt } from './text';
import type { ChatRecord } from './types';

/** Subtypes the readers give records that are not part of Qwen Code's vocabulary. */
export const RecordSubtype = {
  /** Output of a local slash command or of bash mode; `systemPayload.commandOutput`. */
  commandOutput: 'command_output',
  /** The user interrupted the turn (Claude Code's `[Request interrupted by user…]`). */
  interrupted: 'interrupted',
  /** Claude Code's compaction boundary; `systemPayload.compaction`. */
  compactBoundary: 'compact_boundary',
  /** The summary a compaction left behind (Claude Code `isCompactSummary`). */
  compactSummary: 'compact_summary',
  /** Qwen Code's compression record. */
  chatCompression: 'chat_compression',
  /** Claude Code `isMeta` user records (the local-command caveat, expanded command bodies). */
  meta: 'meta',
} as const;

export type TranscriptRecordKind =
  /** A user's prompt, including a slash command shown as `/x a` (`systemPayload.command`). */
  | 'prompt'
  /** A user record the system injected (notification, cron, mid-turn): not a prompt. */
  | 'injected'
  | 'assistant'
  | 'tool-result'
  /** Command output: never a prompt, never a step of its own; belongs to the command above it. */
  | 'command-output'
  | 'interruption'
  /** Where the history was compacted: show a divider here. */
  | 'compaction'
  /** The summary text that continues the history after a compaction. */
  | 'compaction-summary'
  /** Hidden bookkeeping (the local-command caveat). */
  | 'meta'
  /** Metadata that may trail a conversation (titles, progress, hooks). */
  | 'neutral'
  | 'system';

export function transcriptRecordKind(record: ChatRecord): TranscriptRecordKind {
  switch (record.type) {
    case 'user':
      return isUserPrompt(record) ? 'prompt' : 'injected';
    case 'assistant':
      return 'assistant';
    case 'tool_result':
      return 'tool-result';
    default:
      break;
  }
  if (isNeutralRecord(record)) return 'neutral';
  switch (record.subtype) {
    case RecordSubtype.commandOutput:
      return 'command-output';
    case RecordSubtype.interrupted:
      return 'interruption';
    case RecordSubtype.compactBoundary:
    case RecordSubtype.chatCompression:
      return 'compaction';
    case RecordSubtype.compactSummary:
      return 'compaction-summary';
    case RecordSubtype.meta:
      return 'meta';
    default:
      return 'system';
  }
}

export interface CommandOutputPayload {
  stdout: string;
  stderr: string;
}

/** The output of a `command-output` record, else undefined. */
export function commandOutputOf(record: ChatRecord): CommandOutputPayload | undefined {
  if (transcriptRecordKind(record) !== 'command-output') return undefined;
  const output = record.systemPayload?.commandOutput;
  if (typeof output !== 'object' || output === null) return undefined;
  const { stdout, stderr } = output as Record<string, unknown>;
  return {
    stdout: typeof stdout === 'string' ? stdout : '',
    stderr: typeof stderr === 'string' ? stderr : '',
  };
}

export interface SlashCommand {
  /** `/x`, or `!` for bash mode. */
  name: string;
  args: string;
}

/** The command a `prompt` record ran (its display text is `name args`), else undefined. */
export function slashCommandOf(record: ChatRecord): SlashCommand | undefined {
  const command = record.systemPayload?.command;
  if (record.type !== 'user' || typeof command !== 'object' || command === null) return undefined;
  const { name, args } = command as Record<string, unknown>;
  return typeof name === 'string' ? { name, args: typeof args === 'string' ? args : '' } : undefined;
}
