// Conversation titles from the transcript: the title the session was given (a custom title, else
// the one Claude Code wrote: `ai-title`, then `summary`), else the first prompt, clamped. A Qwen Code `custom_title` record belongs to the chains that hold its nearest
// non-neutral ancestor (a title appended after a tail collapses into that tail, docs/branching.md, "The transcript inspector's rules");
// Claude Code keeps its `custom-title` as a session-wide metadata line without a uuid.
import { plainTitle, previewText } from '@trellis/domain';
import type { ChatRecord } from '@trellis/transcripts';
import { definingRecord, type TranscriptIndex } from './transcript-index';
import type { ImportedTurn } from './transcript-turns';

export const MAX_IMPORTED_TITLE_CHARS = 80;
export const FALLBACK_TITLE = 'Imported conversation';

const NEUTRAL_SUBTYPES: ReadonlySet<string> = new Set([
  'custom_title',
  'session_artifact_event',
  'session_artifact_snapshot',
]);

interface AnchoredTitle {
  title: string;
  /** The nearest non-neutral ancestor of the title record (itself when it is not neutral). */
  anchorUuid: string;
}

export interface TitleSource {
  /** The title for a leaf with this chain and these turns, and whether the transcript named it. */
  titleOf(chain: readonly string[], turns: readonly ImportedTurn[]): { title: string; isOwn: boolean };
}

export function createTitleSource(index: TranscriptIndex, content: string): TitleSource {
  const anchored = anchoredTitles(index);
  const sessionTitle = claudeCodeSessionTitle(content);
  return {
    titleOf(chain, turns) {
      const onChain = new Set(chain);
      const own = anchored.findLast((t) => onChain.has(t.anchorUuid))?.title ?? sessionTitle;
      return { title: clampTitle(own ?? turns[0]?.prompt ?? FALLBACK_TITLE), isOwn: own !== undefined };
    },
  };
}

export function clampTitle(title: string): string {
  const clamped = previewText(plainTitle(title), MAX_IMPORTED_TITLE_CHARS);
  return clamped === '' ? FALLBACK_TITLE : clamped;
}

function anchoredTitles(index: TranscriptIndex): AnchoredTitle[] {
  const titles: AnchoredTitle[] = [];
  for (const record of index.records) {
    if (record.type !== 'system' || record.subtype !== 'custom_title') continue;
    const title = titleField(record);
    const anchorUuid = title === undefined ? undefined : nonNeutralAnchor(index, record.uuid);
    if (title !== undefined && anchorUuid !== undefined) titles.push({ title, anchorUuid });
  }
  return titles;
}

/** Qwen Code's field name for the title is not part of the record contract; accept the usual ones. */
function titleField(record: ChatRecord): string | undefined {
  const payload = record.systemPayload ?? {};
  for (const value of [payload.customTitle, payload.title, record.customTitle, record.title]) {
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

function nonNeutralAnchor(index: TranscriptIndex, uuid: string): string | undefined {
  const seen = new Set<string>();
  let current: string | null = uuid;
  while (current !== null && !seen.has(current)) {
    seen.add(current);
    const record = definingRecord(index, current);
    if (record === undefined) return undefined;
    const isNeutral =
      record.type === 'system' && record.subtype !== undefined && NEUTRAL_SUBTYPES.has(record.subtype);
    if (!isNeutral) return current;
    current = record.parentUuid;
  }
  return undefined;
}

/** Claude Code's session-wide title lines, in the order a title is taken from them. */
const SESSION_TITLE_FIELDS = [
  { type: 'custom-title', field: 'customTitle' },
  { type: 'ai-title', field: 'aiTitle' },
  { type: 'summary', field: 'summary' },
] as const;

/**
 * The session's own title: the last `custom-title` a person gave it, else the last `ai-title`
 * Claude Code gave it, else the last `summary`; undefined when the file has none (the first
 * prompt names it then). Only lines naming one of these types are parsed.
 */
export function claudeCodeSessionTitle(content: string): string | undefined {
  for (const { type, field } of SESSION_TITLE_FIELDS) {
    let title: string | undefined;
    let at = content.indexOf(`"${type}"`);
    while (at !== -1) {
      const start = content.lastIndexOf('\n', at) + 1;
      const newline = content.indexOf('\n', at);
      const end = newline === -1 ? content.length : newline;
      title = titleLineOf(content.slice(start, end), type, field) ?? title;
      at = content.indexOf(`"${type}"`, end);
    }
    if (title !== undefined) return title;
  }
  return undefined;
}

function titleLineOf(line: string, type: string, field: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined; // not a metadata line; the readers report malformed lines
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const title = record[field];
  return record.type === type && typeof title === 'string' && title.trim() !== '' ? title : undefined;
}
