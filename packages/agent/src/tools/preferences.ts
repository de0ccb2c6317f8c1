import { z } from 'zod';
import { defineTool, idField, quote, textField } from './define';

// A locked preference is never changed: the port refuses (ToolRefusal) and the
// model reads the refusal as the tool's error result.

export const addPreferenceTool = defineTool({
  name: 'add_preference',
  description: "Record a preference of the person (style, tone, constraints) that every later answer must follow.",
  schema: z.object({ text: textField('The preference, as one short sentence') }),
  run: async (workspace, { text }) => {
    const { id } = await workspace.addPreference({ text });
    return `Preference ${id} added: ${quote(text)}.`;
  },
});

export const updatePreferenceTool = defineTool({
  name: 'update_preference',
  description: 'Reword an existing preference. Locked preferences cannot be changed.',
  schema: z.object({
    id: idField('The id of the preference, as shown in brackets in the workspace'),
    text: textField('The new wording'),
  }),
  run: async (workspace, { id, text }) => {
    await workspace.updatePreference({ id, text });
    return `Preference ${id} updated to ${quote(text)}.`;
  },
});

export const removePreferenceTool = defineTool({
  name: 'remove_preference',
  description: 'Remove a preference. Locked preferences cannot be removed.',
  schema: z.object({ id: idField('The id of the preference, as shown in brackets in the workspace') }),
  run: async (workspace, { id }) => {
    await workspace.removePreference({ id });
    return `Preference ${id} removed.`;
  },
});
