// A chain of transcript records read as Trellis turns: a turn opens at a real user
// prompt — not a tool result, not a notification, cron or mid-turn record (the inspector's prompt
// rule) — and holds the assistant text that follows until the next prompt, without reasoning
// (`thought`) parts. Tool calls and their results become the reply's tool calls. Records before
// the first prompt, and injected inputs anywhere, belong to no turn.
import type { StoredToolCall } from '@trellis/db';
import { commandOutputOf, transcriptRecordKind, type ChatRecord } from '@trellis/transcripts';
import { sameTypeRecords, type TranscriptIndex } from './transcript-index';

export interface ImportedTurn {
  /**
   * The turn's identity: the uuids of the records that make up what was said — the prompt, the
   * replies, the tool results. System records (rewinds, titles, compression …) and injected
   * inputs (notifications, cron) change nothing the turn shows, so a rewind to after this turn
   * still shares it. Two paths share a turn when these agree.
   */
  key: string;
  prompt: string;
  /** The prompt's timestamp when it is a usable ISO time, else null (the import time is used). */
  promptAt: string | null;
  /** Null when no assistant record answered the prompt. */
  reply: string | null;
  replyAt: string | null;
  toolCalls: StoredToolCall[];
  /** The history was compacted between the previous turn and this one (the chat shows a divider). */
  compactedBefore: boolean;
}

type ChatPart = NonNullable<ChatRecord['message']>['parts'][number];

const NON_PROMPT_SUBTYPES: ReadonlySet<string> = new Set(['notification', 'cron', 'mid_turn_user_message']);
const EMPTY_PROMPT = '(no text)';
const EMPTY_OUTPUT = '(the command printed nothing)';
const MAX_TOOL_RESULT_CHARS = 4_000;
/** Timestamps further in the future than this are not trusted. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The inspector's rule (docs/branching.md, "The transcript inspector's rules"): injected user records are not prompts. */
export function isUserPrompt(record: ChatRecord): boolean {
  return (
    record.type === 'user' &&
    !(record.subtype !== undefined && NON_PROMPT_SUBTYPES.has(record.subtype)) &&
    record.externalInputKind !== 'notification'
  );
}

export function turnsOf(index: TranscriptIndex, chain: readonly string[], now = Date.now()): ImportedTurn[] {
  const turns: ImportedTurn[] = [];
  let open: OpenTurn | undefined;
  // A compaction seen since the last prompt: the next turn opens below a divider.
  let compacted = false;
  for (const uuid of chain) {
    const records = sameTypeRecords(index, uuid);
    const first = records[0];
    if (first === undefined) continue;
    if (isUserPrompt(first)) {
      if (open) turns.push(close(open));
      open = new OpenTurn(uuid, promptText(records), usableTime(first.timestamp, now), compacted);
      compacted = false;
      continue;
    }
    if (transcriptRecordKind(first) === 'compaction') {
      compacted = true;
      continue;
    }
    if (open === undefined) continue;
    const output = commandOutputOf(first);
    if (output !== undefined) {
      // A slash command's output (`/exit` → "See ya!") is what answered it: the step's reply.
      open.keys.push(uuid);
      open.addCommandOutput(output, usableTime(first.timestamp, now));
      continue;
    }
    if (first.type === 'assistant') {
      open.keys.push(uuid);
      open.addReply(records, usableTime(records.at(-1)!.timestamp, now));
    } else if (first.type === 'tool_result') {
      open.keys.push(uuid);
      open.addResults(records);
    }
  }
  if (open) turns.push(close(open));
  return turns;
}

class OpenTurn {
  readonly keys: string[];
  readonly replies: string[] = [];
  readonly toolCalls: StoredToolCall[] = [];
  readonly commandOutputs: string[] = [];
  commandOutputAt: string | null = null;
  hasReply = false;
  replyAt: string | null = null;

  constructor(
    promptUuid: string,
    readonly prompt: string,
    readonly promptAt: string | null,
    readonly compactedBefore: boolean,
  ) {
    this.keys = [promptUuid];
  }

  addReply(records: readonly ChatRecord[], at: string | null): void {
    this.hasReply = true;
    this.replyAt = at ?? this.replyAt;
    const texts = distinct(records.flatMap((r) => textParts(r, { withThoughts: false })));
    if (texts.length > 0) this.replies.push(texts.join('\n\n'));
    for (const record of records) {
      for (const part of parts(record)) {
        if (part.functionCall !== undefined) this.addCall(part.functionCall);
      }
    }
  }

  addCommandOutput(output: { stdout: string; stderr: string }, at: string | null): void {
    const text = [output.stdout, output.stderr].map((t) => t.trim()).filter((t) => t !== '').join('\n');
    this.commandOutputs.push(text === '' ? EMPTY_OUTPUT : text);
    this.commandOutputAt ??= at;
  }

  addResults(records: readonly ChatRecord[]): void {
    for (const record of records) {
      for (const part of parts(record)) {
        if (part.functionResponse !== undefined) this.addResult(part.functionResponse);
      }
    }
  }

  private addCall(call: unknown): void {
    const fields = asObject(call);
    const id = typeof fields.id === 'string' && fields.id !== '' ? fields.id : `call_${this.toolCalls.length + 1}`;
    const name = typeof fields.name === 'string' && fields.name !== '' ? fields.name : 'tool';
    const args = fields.args;
    this.toolCalls.push({ id, name, args: isObject(args) ? args : args === undefined ? {} : { value: args } });
  }

  /** A result answers the call with its id, else the oldest unanswered call of its name. */
  private addResult(response: unknown): void {
    const fields = asObject(response);
    const call =
      (typeof fields.id === 'string' ? this.toolCalls.find((c) => c.id === fields.id) : undefined) ??
      this.toolCalls.find((c) => c.result === undefined && c.name === fields.name);
    if (call === undefined || call.result !== undefined) return;
    const { text, isError } = resultText(fields.response);
    call.result = clamp(text, MAX_TOOL_RESULT_CHARS);
    if (isError) call.is_error = true;
  }
}

function close(turn: OpenTurn): ImportedTurn {
  // A command that only printed output (no assistant record) answers with that output.
  const commandOnly = !turn.hasReply && turn.commandOutputs.length > 0;
  return {
    key: turn.keys.join('\u0000'),
    prompt: turn.prompt,
    promptAt: turn.promptAt,
    reply: turn.hasReply ? turn.replies.join('\n\n') : commandOnly ? turn.commandOutputs.join('\n\n') : null,
    replyAt: turn.hasReply ? (turn.replyAt ?? turn.promptAt) : commandOnly ? (turn.commandOutputAt ?? turn.promptAt) : null,
    toolCalls: turn.toolCalls,
    compactedBefore: turn.compactedBefore,
  };
}

/** A user record's text: `systemPayload.displayText` (what the user saw) when present, else its text parts. */
function promptText(records: readonly ChatRecord[]): string {
  const texts = distinct(
    records.flatMap((record) => {
      const displayText = record.systemPayload?.displayText;
      return typeof displayText === 'string' ? [displayText] : textParts(record, { withThoughts: true });
    }),
  );
  const text = texts.join('\n\n').trim();
  return text === '' ? EMPTY_PROMPT : text;
}

function textParts(record: ChatRecord, options: { withThoughts: boolean }): string[] {
  const texts: string[] = [];
  for (const part of parts(record)) {
    if (typeof part.text !== 'string' || part.text.trim() === '') continue;
    if (!options.withThoughts && part.thought === true) continue;
    texts.push(part.text);
  }
  return texts;
}

function parts(record: ChatRecord): ChatPart[] {
  const list = record.message?.parts;
  return Array.isArray(list) ? list : [];
}

/** Tool output as text: Qwen Code's `{output}` / `{error}`, Claude Code's content blocks, else JSON. */
function resultText(response: unknown): { text: string; isError: boolean } {
  if (typeof response === 'string') return { text: response, isError: false };
  const fields = asObject(response);
  const isError = fields.isError === true || fields.error !== undefined;
  const body = fields.output ?? fields.error ?? fields.content ?? response;
  if (typeof body === 'string') return { text: body, isError };
  if (Array.isArray(body)) {
    const texts = body.flatMap((block) => {
      const b = asObject(block);
      return typeof b.text === 'string' ? [b.text] : [];
    });
    if (texts.length > 0) return { text: texts.join('\n'), isError };
  }
  return { text: JSON.stringify(body) ?? '', isError };
}

/** An ISO time for a record's timestamp, or null when it is unreadable or in the future. */
function usableTime(timestamp: string, now: number): string | null {
  if (timestamp === '') return null;
  const ms = Date.parse(timestamp);
  if (!Number.isFinite(ms) || ms > now + CLOCK_SKEW_MS) return null;
  return new Date(ms).toISOString();
}

/** Duplicate records of one uuid (two writers) must not repeat their text. */
function distinct(texts: readonly string[]): string[] {
  return [...new Set(texts)];
}

function clamp(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}
