import { z } from 'zod';
import { defineTool, quote, textField } from './define';

export const setObjectiveTool = defineTool({
  name: 'set_objective',
  description: "Set the workspace objective: one or two sentences saying what the document is for. Replaces the previous objective.",
  schema: z.object({ text: textField('The new objective, in plain text') }),
  run: async (workspace, { text }) => {
    await workspace.setObjective(text);
    return `Objective set to ${quote(text)}.`;
  },
});
