// How a workspace tool is declared and executed. The model's arguments are
// parsed with the tool's zod schema, never cast: invalid arguments and
// refusals go back to the model as an error result; anything else (the
// database is down) fails the run.
import { z } from 'zod';
import { isToolRefusal, type WorkspacePort } from '../workspace-port';

/** Limits shared with the REST contracts (domain `contracts/workspace`). */
export const MAX_TEXT_CHARS = 10_000;
export const MAX_DOCUMENT_CHARS = 2_000_000;
export const MAX_TITLE_CHARS = 500;
export const MAX_TODO_DEPTH = 8;

export interface ToolOutcome {
  /** A short sentence for the model (and the UI's tool chip). */
  result: string;
  isError: boolean;
}

export interface WorkspaceTool {
  readonly name: string;
  readonly description: string;
  /** Bound to the model as the tool's parameters (JSON schema derived from it). */
  readonly schema: z.ZodObject;
  execute(workspace: WorkspacePort, rawArgs: unknown): Promise<ToolOutcome>;
}

export function defineTool<S extends z.ZodObject>(spec: {
  name: string;
  description: string;
  schema: S;
  run: (workspace: WorkspacePort, args: z.output<S>) => Promise<string>;
}): WorkspaceTool {
  return {
    name: spec.name,
    description: spec.description,
    schema: spec.schema,
    async execute(workspace, rawArgs) {
      const parsed = spec.schema.safeParse(rawArgs ?? {});
      if (!parsed.success) return { result: `Invalid arguments: ${formatIssues(parsed.error)}`, isError: true };
      try {
        return { result: await spec.run(workspace, parsed.data), isError: false };
      } catch (error: unknown) {
        if (isToolRefusal(error)) return { result: `Refused: ${error.message}`, isError: true };
        throw error;
      }
    },
  };
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Quotes user text in a tool result, shortened so results stay short. */
export function quote(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

export const textField = (what: string) =>
  z.string().trim().min(1, 'must not be empty').max(MAX_TEXT_CHARS).describe(what);
export const idField = (what: string) => z.string().trim().min(1, 'must not be empty').describe(what);
