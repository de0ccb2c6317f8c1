// `read_path`: the agent's one window on another path of the family, offered only on a turn whose
// message names steps of other paths (`refs`). It reads exactly those steps, through the port the
// services layer builds for the turn; without that port the tool does not exist for the model.
import { ReadPathArgsSchema, READ_PATH_MAX_BYTES, READ_PATH_TOOL, type ReadPathArgs } from '@trellis/domain';
import { isToolRefusal } from '../workspace-port';
import type { ToolOutcome } from './define';

export { READ_PATH_TOOL };

/** Implemented by the services layer for one turn: reads a step the message referenced, or refuses (ToolRefusal). */
export interface PathsPort {
  read(args: ReadPathArgs): Promise<string>;
}

export const readPathTool = {
  name: READ_PATH_TOOL,
  description:
    'Read a step of another path of this conversation that the person referenced in their message (listed with its label, thread_id and turn). ' +
    'Answers JSON: the document, the items (objective, preferences, todos, artifacts) and the messages up to that step, as they stood then — ' +
    `at most ${READ_PATH_MAX_BYTES / 1024} KB; a "truncated" field says what was left out. Name the step's label when you use what you read.`,
  schema: ReadPathArgsSchema,
  async execute(paths: PathsPort, rawArgs: unknown): Promise<ToolOutcome> {
    const parsed = ReadPathArgsSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { result: `Invalid arguments: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'not valid'}`, isError: true };
    }
    try {
      return { result: await paths.read(parsed.data), isError: false };
    } catch (error: unknown) {
      if (isToolRefusal(error)) return { result: `Refused: ${error.message}`, isError: true };
      throw error;
    }
  },
};
