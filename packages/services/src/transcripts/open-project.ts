// A zipped project folder turned into what the transcript pipeline reads: the main sessions as one
// JSONL text (assembleProject, @trellis/transcripts) and each subagent run keyed by the call that
// started it, ready to be stored on that call (`tool_calls[].subagent`). Runs in the worker.
import { AppError, type SubagentRun as StoredRun, type TranscriptProject } from '@trellis/domain';
import { assembleProject, type AssembledProject } from '@trellis/transcripts';
import type { TranscriptUpload } from './read-transcript';
import { unzipProject } from './unzip-project';
import { assertWithinByteLimit } from './upload-limits';

export interface ProjectUpload {
  /** The zip's bytes: one project folder, its session files and their `subagents/` folders. */
  zip: Uint8Array;
  filename?: string | undefined;
}

export interface OpenedProject {
  upload: TranscriptUpload;
  project: AssembledProject;
  /** Every attached run by the `tool_use` id that started it. */
  runsByCall: Map<string, StoredRun>;
}

const MAX_RUN_TEXT_CHARS = 4_000;

export function openProject(upload: ProjectUpload): OpenedProject {
  const project = assembleProject(unzipProject(upload.zip));
  if (project.sessions.length === 0) {
    const message = `${upload.filename ?? 'The zip'} holds no session file (a .jsonl outside subagents/)`;
    throw new AppError('validation_failed', message, {
      details: { issues: [{ path: 'body', message }], reason: 'no-session' },
    });
  }
  assertWithinByteLimit(project.content);
  const runsByCall = new Map<string, StoredRun>();
  for (const run of project.subagents) {
    if (run.toolUseId === null) continue;
    runsByCall.set(run.toolUseId, {
      agent_id: run.agentId,
      description: run.description,
      prompt: clamp(run.prompt),
      reply: run.reply === null ? null : clamp(run.reply),
      tools: run.tools,
      record_count: run.recordCount,
    });
  }
  return { upload: { content: project.content, filename: upload.filename }, project, runsByCall };
}

/** The inspection's view of the folder. */
export function projectSummary(project: AssembledProject): TranscriptProject {
  return {
    sessions: project.sessions.map((s) => ({
      path: s.path,
      session_id: s.sessionId,
      record_count: s.recordCount,
      continues: s.continues,
    })),
    subagents: project.subagents.map((run) => ({
      path: run.path,
      agent_id: run.agentId,
      tool_use_id: run.toolUseId,
      description: run.description,
      tool_count: run.tools.length,
    })),
    diagnostics: project.diagnostics.slice(0, 1_000),
  };
}

function clamp(text: string): string {
  return text.length > MAX_RUN_TEXT_CHARS ? `${text.slice(0, MAX_RUN_TEXT_CHARS - 1)}…` : text;
}
