import type { WorkspaceTool } from './define';
import { createArtifactTool } from './artifacts';
import { replaceSectionTool, writeDocumentTool } from './document';
import { setObjectiveTool } from './objective';
import { addPreferenceTool, removePreferenceTool, updatePreferenceTool } from './preferences';
import { addTodoTool, completeTodoTool, removeTodoTool, updateTodoTool } from './todos';

export type { ToolOutcome, WorkspaceTool } from './define';

/** Every tool the agent may call, in the order they are offered to the model. */
export const WORKSPACE_TOOLS: readonly WorkspaceTool[] = [
  setObjectiveTool,
  writeDocumentTool,
  replaceSectionTool,
  addPreferenceTool,
  updatePreferenceTool,
  removePreferenceTool,
  addTodoTool,
  updateTodoTool,
  completeTodoTool,
  removeTodoTool,
  createArtifactTool,
];

export function findTool(name: string): WorkspaceTool | undefined {
  return WORKSPACE_TOOLS.find((t) => t.name === name);
}
