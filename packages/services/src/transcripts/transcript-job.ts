// The CPU-bound half of inspect and import, run inside the transcript worker (run-transcript-job.ts):
// parsing the upload's JSON body, the limits, the reader, the inspector and the turns of every leaf. Its answer crosses the thread
// boundary by structured clone, so it holds only what the request thread still needs — never the
// records themselves.
import { createHash } from 'node:crypto';
import { AppError, MAX_JSON_DEPTH, exceedsJsonDepth, type TranscriptInspection } from '@trellis/domain';
import type { LeafPath } from './import-plan';
import { openProject, projectSummary, type ProjectUpload } from './open-project';
import { readTranscript, type TranscriptUpload } from './read-transcript';
import type { ImportedTurn } from './transcript-turns';
import { storableJson, storableText } from './upload-limits';

/** A JSONL text, or a zipped project folder (open-project.ts). */
export type AnyUpload = TranscriptUpload | ProjectUpload;

export type TranscriptJob =
  | { kind: 'inspect'; upload: AnyUpload }
  | { kind: 'read-leaves'; upload: AnyUpload }
  | { kind: 'parse-json'; bytes: Uint8Array };

/** A parse-json answer: the request body as `JSON.parse` read it, still to be checked against its schema. */
export interface ParsedJson {
  parsed: unknown;
}

export interface ReadLeaves {
  format: TranscriptInspection['format'];
  /** sha-256 of the content, hex: the same file imported twice is recognised by it. */
  contentHash: string;
  /** Every distinct turn once (leaves share their prefixes); every text is storable (see storableText). */
  turns: ImportedTurn[];
  /** In the inspector's order, each turn an index into `turns`. */
  leaves: { leafUuid: string; title: string; hasOwnTitle: boolean; turns: number[] }[];
}

/** The leaves with their turns, as the import plan reads them; shared turns stay shared objects. */
export function leafPaths(read: ReadLeaves): LeafPath[] {
  return read.leaves.map((leaf) => ({ ...leaf, turns: leaf.turns.map((i) => read.turns[i]!) }));
}

export type TranscriptJobResult<J extends TranscriptJob> = J extends { kind: 'inspect' }
  ? TranscriptInspection
  : J extends { kind: 'read-leaves' }
    ? ReadLeaves
    : ParsedJson;

/** How many turns of a read-leaves answer cross the thread boundary per message (see transcript-worker.ts). */
export const TURNS_PER_MESSAGE = 2_000;

/** A slice of a read-leaves answer's turns, sent ahead of the outcome. */
export interface TurnsMessage {
  turns: ImportedTurn[];
}

/** A job's outcome as a plain value: an AppError is carried by code, message and details. */
export type JobOutcome =
  | { ok: true; value: TranscriptInspection | ReadLeaves | ParsedJson }
  | { ok: false; error: { code: AppError['code']; message: string; details?: unknown } };

export function runTranscriptJob(job: TranscriptJob): JobOutcome {
  try {
    return { ok: true, value: runJob(job) };
  } catch (error) {
    if (error instanceof AppError) {
      return { ok: false, error: { code: error.code, message: error.message, details: error.details } };
    }
    // A stack overflow or any other surprise in the reader is about this file, not the server.
    return {
      ok: false,
      error: {
        code: 'validation_failed',
        message: 'The transcript could not be read: its structure is not one Trellis can follow',
        details: { issues: [{ path: 'content', message: error instanceof Error ? error.message : String(error) }] },
      },
    };
  }
}

function runJob(job: TranscriptJob): TranscriptInspection | ReadLeaves | ParsedJson {
  switch (job.kind) {
    case 'inspect':
      return inspect(job.upload);
    case 'read-leaves':
      return readLeaves(job.upload);
    case 'parse-json':
      return { parsed: parseJson(job.bytes) };
  }
}

/**
 * An upload's body: decoding and parsing 20 MB of escaped JSON takes the better part of a second,
 * all of it in one synchronous call, so it happens here rather than on the request thread.
 */
function parseJson(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.length === 0) return {};
  if (exceedsJsonDepth(text)) {
    throw AppError.validation([{ path: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }], `The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'The request body is not valid JSON');
  }
}

function inspect(source: AnyUpload): TranscriptInspection {
  const opened = 'zip' in source ? openProject(source) : undefined;
  const read = readTranscript(opened?.upload ?? (source as TranscriptUpload));
  const upload = opened?.upload ?? source;
  return storableJson({
    format: read.format,
    filename: upload.filename ?? null,
    record_count: read.records.length,
    branches: read.branches,
    leaves: read.leaves.map((leaf) => ({ leaf_uuid: leaf.leafUuid, turn_count: leaf.turns.length, title: leaf.title })),
    diagnostics: read.diagnostics,
    diagnostic_count: read.diagnosticCount,
    reader_diagnostics: read.readerDiagnostics,
    reader_diagnostic_count: read.readerDiagnosticCount,
    skipped_record_types: read.skippedRecordTypes.map(({ recordType, count }) => ({ record_type: recordType, count })),
    ...(opened && { project: projectSummary(opened.project) }),
  });
}

function readLeaves(source: AnyUpload): ReadLeaves {
  const opened = 'zip' in source ? openProject(source) : undefined;
  const upload = opened?.upload ?? (source as TranscriptUpload);
  const read = readTranscript(upload);
  // A project's subagent runs ride on the calls that started them (`tool_calls[].subagent`).
  const withRuns = (calls: ImportedTurn['toolCalls']) =>
    opened === undefined
      ? calls
      : calls.map((call) => {
          const run = opened.runsByCall.get(call.id);
          return run === undefined ? call : { ...call, subagent: run };
        });
  // A turn is identified by its key (see ImportedTurn), so leaves that share a prefix share these.
  const turns: ImportedTurn[] = [];
  const indexOfKey = new Map<string, number>();
  const turnIndex = (turn: ImportedTurn): number => {
    let i = indexOfKey.get(turn.key);
    if (i === undefined) {
      i = turns.length;
      indexOfKey.set(turn.key, i);
      turns.push({
        ...turn,
        prompt: storableText(turn.prompt),
        reply: turn.reply === null ? null : storableText(turn.reply),
        toolCalls: storableJson(withRuns(turn.toolCalls)),
      });
    }
    return i;
  };
  return {
    format: read.format,
    contentHash: createHash('sha256').update(upload.content).digest('hex'),
    turns,
    leaves: read.leaves.map((leaf) => ({
      leafUuid: leaf.leafUuid,
      title: storableText(leaf.title),
      hasOwnTitle: leaf.hasOwnTitle,
      turns: leaf.turns.map(turnIndex),
    })),
  };
}
