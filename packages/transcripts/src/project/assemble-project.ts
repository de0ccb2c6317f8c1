// One Claude Code project folder read as one conversation family (docs/architecture.md, "Transcript
// import"). Claude Code writes `<project>/<sessionId>.jsonl` per session and each subagent run as
// `<sessionId>/subagents/agent-<id>.jsonl`. A resumed or continued session starts a new file whose
// first record's parent (or, after a compaction, whose boundary's `logicalParentUuid`) is a record
// of the file it continues; the readers already join such links by uuid, so the main session files
// are handed on as one JSONL text — ordered so that every file comes after the file it continues —
// and the reader and inspector build one forest from it. A link to a record in no file is named in
// a diagnostic. Subagent files are not part of that text: each run is summarised and attached to
// the `Task`/`Agent` tool call that started it, found by (in this order) the file's
// `fork-context-ref` record, the parent's tool result naming the run's `agentId`, or a task whose
// prompt is the run's first prompt. Pure: the caller unzips or reads the folder.
import { isJsonObject, stringField, type JsonObject } from '../readers/jsonl';

export interface ProjectEntry {
  /** The file's path inside the folder (or zip), `/`-separated. */
  path: string;
  text: string;
}

export interface ProjectSession {
  path: string;
  sessionId: string;
  recordCount: number;
  /** The file this one continues (its first record's parent is there), or null. */
  continues: string | null;
}

export interface SubagentRun {
  path: string;
  agentId: string;
  /** The tool call (`tool_use` id) that started the run; null when none was found. */
  toolUseId: string | null;
  /** The task's description (`Task`/`Agent` input), when the starting call was found. */
  description: string | null;
  prompt: string;
  /** The run's last assistant text, or null when it never answered. */
  reply: string | null;
  /** The tools the run called, in order. */
  tools: string[];
  recordCount: number;
}

export type ProjectDiagnostic =
  | { kind: 'missing-continuation'; path: string; uuid: string }
  | { kind: 'unattached-subagent'; path: string; agentId: string }
  | { kind: 'ignored-entry'; path: string; reason: string };

export interface AssembledProject {
  /** Main sessions in continuation order: a file after the file it continues, else by first timestamp. */
  sessions: ProjectSession[];
  /** The main sessions' lines as one JSONL text, in `sessions` order. */
  content: string;
  subagents: SubagentRun[];
  diagnostics: ProjectDiagnostic[];
}

const TASK_TOOLS: ReadonlySet<string> = new Set(['Task', 'Agent']);
const MAX_LISTED_TOOLS = 100;

interface ParsedFile {
  path: string;
  text: string;
  objects: JsonObject[];
  uuids: Set<string>;
  firstAt: string;
}

interface TaskCall {
  id: string;
  prompt: string | null;
  description: string | null;
}

export function assembleProject(entries: readonly ProjectEntry[]): AssembledProject {
  const diagnostics: ProjectDiagnostic[] = [];
  const mains: ParsedFile[] = [];
  const runs: ParsedFile[] = [];
  for (const entry of entries) {
    if (entry.path.endsWith('/')) continue;
    if (!entry.path.toLowerCase().endsWith('.jsonl')) {
      diagnostics.push({ kind: 'ignored-entry', path: entry.path, reason: 'not a .jsonl file' });
      continue;
    }
    const file = parseFile(entry);
    if (file.objects.length === 0) {
      diagnostics.push({ kind: 'ignored-entry', path: entry.path, reason: 'no JSON records' });
      continue;
    }
    (isSubagentFile(file) ? runs : mains).push(file);
  }
  const sessions = orderSessions(mains, diagnostics);
  const byPath = new Map(mains.map((file) => [file.path, file]));
  const content = sessions.map((s) => withNewline(byPath.get(s.path)!.text)).join('');
  const subagents = attachRuns(
    runs,
    sessions.map((s) => byPath.get(s.path)!),
    diagnostics,
  );
  return { sessions, content, subagents, diagnostics };
}

function parseFile(entry: ProjectEntry): ParsedFile {
  const objects: JsonObject[] = [];
  const uuids = new Set<string>();
  let firstAt = '';
  for (const line of entry.text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      continue; // the reader reports malformed lines with their numbers
    }
    if (!isJsonObject(value)) continue;
    objects.push(value);
    const uuid = stringField(value, 'uuid');
    if (uuid !== undefined) uuids.add(uuid);
    if (firstAt === '') firstAt = stringField(value, 'timestamp') ?? '';
  }
  return { path: entry.path, text: entry.text, objects, uuids, firstAt };
}

/** Under a `subagents/` folder, or every record flagged as a sidechain. */
function isSubagentFile(file: ParsedFile): boolean {
  if (file.path.split('/').includes('subagents')) return true;
  const chained = file.objects.filter((o) => stringField(o, 'uuid') !== undefined);
  return chained.length > 0 && chained.every((o) => o.isSidechain === true);
}

/** The record a file's first chained record continues: its parent, or a compaction root's logical parent. */
function continuationOf(file: ParsedFile): string | undefined {
  const first = file.objects.find((o) => stringField(o, 'uuid') !== undefined);
  if (first === undefined) return undefined;
  return stringField(first, 'parentUuid') ?? stringField(first, 'logicalParentUuid');
}

function orderSessions(files: readonly ParsedFile[], diagnostics: ProjectDiagnostic[]): ProjectSession[] {
  const sorted = [...files].sort((a, b) => compare(a.firstAt, b.firstAt) || compare(a.path, b.path));
  const continues = new Map<string, string | null>();
  for (const file of sorted) {
    const link = continuationOf(file);
    if (link === undefined || file.uuids.has(link)) {
      continues.set(file.path, null);
      continue;
    }
    const previous = sorted.find((other) => other !== file && other.uuids.has(link));
    continues.set(file.path, previous?.path ?? null);
    if (previous === undefined)
      diagnostics.push({ kind: 'missing-continuation', path: file.path, uuid: link });
  }
  // Depth-first: a file is placed after the file it continues; a cycle of files is cut where it is met.
  const placed = new Set<string>();
  const ordered: ProjectSession[] = [];
  const place = (file: ParsedFile, visiting: Set<string>) => {
    if (placed.has(file.path) || visiting.has(file.path)) return;
    visiting.add(file.path);
    const previous = continues.get(file.path);
    const before = previous ? sorted.find((f) => f.path === previous) : undefined;
    if (before) place(before, visiting);
    placed.add(file.path);
    ordered.push({
      path: file.path,
      sessionId: baseName(file.path),
      recordCount: file.uuids.size,
      continues: previous ?? null,
    });
  };
  for (const file of sorted) place(file, new Set());
  return ordered;
}

function attachRuns(
  runs: readonly ParsedFile[],
  mains: readonly ParsedFile[],
  diagnostics: ProjectDiagnostic[],
): SubagentRun[] {
  const tasks: TaskCall[] = [];
  const callOfAgent = new Map<string, string>();
  for (const file of mains) {
    for (const object of file.objects) {
      for (const block of contentBlocks(object)) {
        if (block.type === 'tool_use' && TASK_TOOLS.has(stringField(block, 'name') ?? '')) {
          const input = isJsonObject(block.input) ? block.input : {};
          const id = stringField(block, 'id');
          if (id !== undefined) {
            tasks.push({
              id,
              prompt: stringField(input, 'prompt') ?? null,
              description: stringField(input, 'description') ?? null,
            });
          }
        }
        const agentId = isJsonObject(object.toolUseResult)
          ? stringField(object.toolUseResult, 'agentId')
          : undefined;
        const toolUseId = stringField(block, 'tool_use_id');
        if (block.type === 'tool_result' && agentId !== undefined && toolUseId !== undefined)
          callOfAgent.set(agentId, toolUseId);
      }
    }
  }
  const taskById = new Map(tasks.map((task) => [task.id, task]));
  const claimed = new Set<string>();
  const ordered = [...runs].sort((a, b) => compare(a.firstAt, b.firstAt) || compare(a.path, b.path));
  return ordered.map((file) => {
    const run = summarise(file);
    const ref = file.objects.find((o) => o.type === 'fork-context-ref');
    const fromRef = ref === undefined ? undefined : stringField(ref, 'parentToolUseId');
    const byPrompt = tasks.find(
      (task) => !claimed.has(task.id) && task.prompt !== null && task.prompt === run.prompt,
    )?.id;
    const toolUseId = [fromRef, callOfAgent.get(run.agentId), byPrompt].find(
      (id): id is string => id !== undefined && taskById.has(id) && !claimed.has(id),
    );
    if (toolUseId === undefined) {
      diagnostics.push({ kind: 'unattached-subagent', path: file.path, agentId: run.agentId });
      return { ...run, toolUseId: null, description: null };
    }
    claimed.add(toolUseId);
    return { ...run, toolUseId, description: taskById.get(toolUseId)!.description };
  });
}

function summarise(file: ParsedFile): Omit<SubagentRun, 'toolUseId' | 'description'> {
  let agentId: string | undefined;
  let prompt: string | undefined;
  let reply: string | null = null;
  const tools: string[] = [];
  for (const object of file.objects) {
    agentId ??= stringField(object, 'agentId');
    if (stringField(object, 'uuid') === undefined) continue;
    const message = isJsonObject(object.message) ? object.message : undefined;
    if (object.type === 'user' && prompt === undefined) {
      const text = textOf(message?.content);
      if (text !== '') prompt = text;
    }
    if (object.type === 'assistant') {
      const text = textOf(message?.content);
      if (text !== '') reply = text;
      for (const block of contentBlocks(object)) {
        const name = stringField(block, 'name');
        if (block.type === 'tool_use' && name !== undefined && tools.length < MAX_LISTED_TOOLS)
          tools.push(name);
      }
    }
  }
  const fromName = /^agent-(.+)\.jsonl$/i.exec(baseName(file.path, false))?.[1];
  return {
    path: file.path,
    agentId: agentId ?? fromName ?? baseName(file.path),
    prompt: prompt ?? '',
    reply,
    tools,
    recordCount: file.uuids.size,
  };
}

function contentBlocks(object: JsonObject): JsonObject[] {
  const message = isJsonObject(object.message) ? object.message : undefined;
  const content = message?.content;
  return Array.isArray(content) ? content.filter(isJsonObject) : [];
}

/** A message's text: a string content, or its text blocks joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .filter(isJsonObject)
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('\n\n')
    .trim();
}

function baseName(path: string, withoutExtension = true): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return withoutExtension ? name.replace(/\.jsonl$/i, '') : name;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
