import { z } from 'zod';
import type { WorkspacePort } from '../workspace-port';
import { defineTool, idField, quote, textField } from './define';

/** Results name a preference by its text, never by its id: people read them as tool chips. */
async function preferenceText(workspace: WorkspacePort, id: string): Promise<string | undefined> {
  return (await workspace.read()).preferences.find((p) => p.id === id)?.text;
}

// A locked preference is never changed: the port refuses (ToolRefusal) and the
// model reads the refusal as the tool's error result.

export const addPreferenceTool = defineTool({
  name: 'add_preference',
  description: "Record a preference of the person (style, tone, constraints) that every later answer must follow.",
  schema: z.object({ text: textField('The preference, as one short sentence') }),
  run: async (workspace, { text }) => {
    await workspace.addPreference({ text });
    return `Preference added: ${quote(text)}.`;
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
    const before = await preferenceText(workspace, id);
    await workspace.updatePreference({ id, text });
    return before === undefined ? `Preference updated to ${quote(text)}.` : `Preference ${quote(before)} updated to ${quote(text)}.`;
  },
});

export const removePreferenceTool = defineTool({
  name: 'remove_preference',
  description: 'Remove a preference. Locked preferences cannot be removed.',
  schema: z.object({ id: idField('The id of the preference, as shown in brackets in the workspace') }),
  run: async (workspace, { id }) => {
    const before = await preferenceText(workspace, id);
    await workspace.removePreference({ id });
    return before === undefined ? 'Preference removed.' : `Preference ${quote(before)} removed.`;
  },
});
