// The research dataset: a family as flat tables a researcher loads in one line. This one
// declaration is the schema of every CSV, the source of `datapackage.json` (a Frictionless Tabular
// Data Package) and of `docs/dataset.md`, so the three cannot drift. Pure: no I/O.

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'datetime';

export interface DatasetField {
  readonly name: string;
  readonly type: FieldType;
  readonly description: string;
  readonly required?: boolean;
}

export interface DatasetTable {
  readonly name: string;
  readonly description: string;
  readonly fields: readonly DatasetField[];
  readonly primaryKey: readonly string[];
  readonly foreignKeys: readonly DatasetForeignKey[];
}

/** One column that joins another table's key column (every key of the dataset is one column). */
export interface DatasetForeignKey {
  readonly field: string;
  readonly resource: string;
  readonly target: string;
}

const f = (name: string, type: FieldType, description: string, required = false): DatasetField => ({ name, type, description, required });
const fk = (field: string, resource: string, target = field): DatasetForeignKey => ({ field, resource, target });

export const DATASET_TABLES: readonly DatasetTable[] = [
  {
    name: 'families',
    description: 'One row per family: a root path and every path branched from it.',
    fields: [
      f('family_id', 'string', 'The root path’s thread id.', true),
      f('owner_id', 'string', 'The owner’s user id (a salted hash when pseudonymised).', true),
      f('owner_email', 'string', 'The owner’s email (a salted hash when pseudonymised).'),
      f('role', 'string', 'The exporter’s role in the family: owner, editor, commenter or viewer (a family shared with them).', true),
      f('title', 'string', 'The root path’s title.', true),
      f('created_at', 'datetime', 'When the family was created.', true),
    ],
    primaryKey: ['family_id'],
    foreignKeys: [],
  },
  {
    name: 'paths',
    description: 'One row per path (a thread): the root, and each branch with its parent and branch point.',
    fields: [
      f('path_id', 'string', 'The thread id.', true),
      f('family_id', 'string', 'Its family.', true),
      f('parent_path_id', 'string', 'The path it branched from; empty at the root.'),
      f('branch_point', 'integer', 'The parent’s step k it branched after; empty at the root.'),
      f('reason', 'string', 'Why it was made (edit, regenerate, continue from here), when recorded.'),
      f('title', 'string', 'Its title.', true),
      f('starred', 'boolean', 'Marked by its owner.', true),
      f('archived', 'boolean', 'Put away by its owner.', true),
      f('deleted', 'boolean', 'Deleted (kept here when a live path inherits from it).', true),
      f('created_at', 'datetime', 'When it was created.', true),
    ],
    primaryKey: ['path_id'],
    foreignKeys: [fk('family_id', 'families'), fk('parent_path_id', 'paths', 'path_id')],
  },
  {
    name: 'steps',
    description: 'One row per step (a user turn): the graph’s nodes. parent_step_id alone rebuilds the family’s tree.',
    fields: [
      f('step_id', 'string', 'The graph’s node id, "{path_id}:{turn}".', true),
      f('parent_step_id', 'string', 'The step before it on its path (across a branch point); empty for a first step.'),
      f('path_id', 'string', 'The path that owns the step.', true),
      f('turn', 'integer', 'The turn number (1, 2, …), shared by sibling paths at the same depth.', true),
      f('label', 'string', 'The path-wide step label (4.1, 3.2, 4.1.1).', true),
      f('depth', 'integer', 'How many branch points lie between the root path and this step’s path.', true),
      f('user_message', 'string', 'The message that opened the step (an apply’s entry for an apply step).'),
      f('started_at', 'datetime', 'When the step began (its snapshot was taken).', true),
      f('finished_at', 'datetime', 'When its reply was stored; empty while none.'),
      f('status', 'string', 'The reply’s status: complete, interrupted, failed, or empty without a reply.'),
      f('person_words', 'integer', 'Words of the document after this step that the person wrote in it (the authorship overlay of the step, counted as its summary counts; applied text counts for the step that wrote it on its source path).', true),
      f('agent_words', 'integer', 'Words of the document after this step that the agent wrote in it (counted like person_words).', true),
      f('agent_edited_words', 'integer', 'Words of sentences, headings, list items or table cells the agent wrote that the person changed in this step.', true),
      f('items_added', 'integer', 'Preferences, todos and artifacts added in this step.'),
      f('items_removed', 'integer', 'Preferences and todos removed in this step.'),
      f('items_edited', 'integer', 'Preferences and todos edited in this step.'),
    ],
    primaryKey: ['step_id'],
    foreignKeys: [fk('path_id', 'paths'), fk('parent_step_id', 'steps', 'step_id')],
  },
  {
    name: 'messages',
    description: 'Every message of every path, in order: user messages, replies and apply entries.',
    fields: [
      f('message_id', 'string', 'The message id.', true),
      f('step_id', 'string', 'The step it belongs to.', true),
      f('role', 'string', 'user, assistant or system (an apply entry).', true),
      f('content', 'string', 'The text, verbatim (empty for a reply stopped before its first word).'),
      f('status', 'string', 'complete, interrupted or failed.', true),
      f('reason', 'string', 'Why a reply did not complete.'),
      f('input_tokens', 'integer', 'A reply’s prompt tokens as the provider reported them; empty when it reported none (and for user messages and apply entries).'),
      f('output_tokens', 'integer', 'A reply’s completion tokens as the provider reported them; empty when it reported none.'),
      f('model', 'string', 'The model that answered, as the provider named it; empty when unknown.'),
      f('created_at', 'datetime', 'When it was stored.', true),
    ],
    primaryKey: ['message_id'],
    foreignKeys: [fk('step_id', 'steps')],
  },
  {
    name: 'tool_calls',
    description: 'Every tool call of the agent’s replies, with its arguments and result.',
    fields: [
      f('tool_call_id', 'string', 'The call’s id (unique within the export).', true),
      f('message_id', 'string', 'The reply that made it.', true),
      f('step_id', 'string', 'Its step.', true),
      f('position', 'integer', 'Its place among the reply’s calls (0, 1, …).', true),
      f('name', 'string', 'The tool’s name.', true),
      f('arguments', 'string', 'The arguments, as JSON.', true),
      f('result', 'string', 'What the tool answered.'),
      f('error', 'boolean', 'The tool refused or failed.', true),
    ],
    primaryKey: ['tool_call_id'],
    foreignKeys: [fk('message_id', 'messages'), fk('step_id', 'steps')],
  },
  {
    name: 'changes',
    description: 'The change log: every workspace change of every path, by whom and through what.',
    fields: [
      f('change_id', 'string', '"{path_id}:{seq}".', true),
      f('path_id', 'string', 'The path whose workspace changed.', true),
      f('seq', 'integer', 'Gapless per path.', true),
      f('step_id', 'string', 'The step whose after-state it changes (an edit between step k and k+1 belongs to k); empty before the first step.'),
      f('actor', 'string', 'person, agent or system.', true),
      f('actor_id', 'string', 'The person’s user id (hashed when pseudonymised) or the agent’s tool call id.'),
      f('via', 'string', 'editor, agent_tool, apply, preview_edit, import or migration.', true),
      f('via_source', 'string', 'An apply’s source step id; on an agent_tool change, the cited step (read with read_path) whose text the agent copied.'),
      f('kind', 'string', 'objective, document, document_title, preference, todo or artifact.', true),
      f('key', 'string', 'The item’s key (stable across paths); empty for the objective and the document.'),
      f('op', 'string', 'What happened (set, patch, add, edit, delete, move, …).', true),
      f('before', 'string', 'The state before, as JSON (for the document: its version and the deleted text).'),
      f('after', 'string', 'The state after, as JSON (for the document: its version and the patch).'),
      f('created_at', 'datetime', 'When it was committed.', true),
    ],
    primaryKey: ['change_id'],
    foreignKeys: [fk('path_id', 'paths'), fk('step_id', 'steps')],
  },
  {
    name: 'items',
    description: 'Every preference and todo as it stood after each step (the restore rule), and each artifact at the step that made it.',
    fields: [
      f('step_id', 'string', 'The step after which the item stood so.', true),
      f('kind', 'string', 'preference, todo or artifact.', true),
      f('key', 'string', 'The item’s key; empty for items older than keys.'),
      f('position', 'integer', 'Its place in its list.', true),
      f('text', 'string', 'A preference’s or todo’s text, an artifact’s title.', true),
      f('locked', 'boolean', 'A preference is locked.'),
      f('done', 'boolean', 'A todo is done.'),
      f('depth', 'integer', 'A todo’s nesting depth.'),
      f('artifact_kind', 'string', 'An artifact’s kind.'),
      f('content', 'string', 'An artifact’s content.'),
    ],
    primaryKey: ['step_id', 'kind', 'position'],
    foreignKeys: [fk('step_id', 'steps')],
  },
  {
    name: 'applies',
    description: 'Every apply (and undo of one): items brought from one step onto another path as one new step.',
    fields: [
      f('step_id', 'string', 'The apply step.', true),
      f('source_step_id', 'string', 'The step the items came from (for an undo: the apply it reverses).', true),
      f('items', 'string', 'The applied items’ descriptions, as a JSON array.', true),
      f('note', 'string', 'The person’s note.'),
      f('undoes_step_id', 'string', 'For an undo: the apply step it reverses.'),
    ],
    primaryKey: ['step_id'],
    foreignKeys: [fk('step_id', 'steps'), fk('source_step_id', 'steps', 'step_id')],
  },
  {
    name: 'decisions',
    description: 'The decision map: every preference and todo discarded, at which step, by whom.',
    fields: [
      f('decision_id', 'string', 'The row’s id.', true),
      f('step_id', 'string', 'The step it was discarded at.', true),
      f('kind', 'string', 'preference or todo.', true),
      f('key', 'string', 'The item’s key.', true),
      f('text', 'string', 'Its text when discarded.', true),
      f('discarded_by', 'string', 'person or agent.', true),
      f('discarded_at', 'datetime', 'When.', true),
    ],
    primaryKey: ['decision_id'],
    foreignKeys: [fk('step_id', 'steps')],
  },
  {
    name: 'edges',
    description:
      'The graph’s edges: turn (within a path), branch (a branch’s first step from its branch point), apply (source to apply step) and cite (a step of another path to the step whose reply read it).',
    fields: [
      f('source_step_id', 'string', 'From.', true),
      f('target_step_id', 'string', 'To.', true),
      f('kind', 'string', 'turn, branch, apply or cite.', true),
    ],
    primaryKey: ['source_step_id', 'target_step_id', 'kind'],
    foreignKeys: [fk('source_step_id', 'steps', 'step_id'), fk('target_step_id', 'steps', 'step_id')],
  },
  {
    name: 'comments',
    description: 'One row per comment: a note on a step, a message or a passage of a path’s document. Not a change: no step, no authorship.',
    fields: [
      f('comment_id', 'string', 'The comment’s id.', true),
      f('path_id', 'string', 'The path it was made on.', true),
      f('step_id', 'string', 'The step it is about (a passage: the path’s step when it was made); empty before the first step.'),
      f('parent_comment_id', 'string', 'The comment it replies to; empty for a first comment.'),
      f('anchor_kind', 'string', 'step, message or passage.', true),
      f('message_id', 'string', 'The message it is about (anchor_kind message).'),
      f('start', 'integer', 'A passage: where it stands in the live document at the export (UTF-16 offset).'),
      f('end', 'integer', 'A passage: its end at the export (UTF-16 offset, exclusive).'),
      f('quote', 'string', 'A passage: the text it covered when the comment was made.'),
      f('orphaned', 'boolean', 'A passage whose text has all been deleted since.', true),
      f('author_id', 'string', 'Who wrote it (a salted hash when pseudonymised).', true),
      f('body', 'string', 'The comment, as written (Markdown).', true),
      f('created_at', 'datetime', 'When it was written.', true),
      f('resolved', 'boolean', 'Marked resolved.', true),
    ],
    primaryKey: ['comment_id'],
    foreignKeys: [fk('path_id', 'paths'), fk('step_id', 'steps'), fk('parent_comment_id', 'comments', 'comment_id')],
  },
];

export type DatasetRow = Record<string, string | number | boolean | null | undefined>;

/**
 * A study's dataset: the tables of its participants' families, `families.participant_id` joining
 * `participants`, and `participants` and `conditions` besides. The pid column is there only when
 * the researcher asks for it.
 */
export function studyDatasetTables(input: { includePid: boolean }): readonly DatasetTable[] {
  const participants: DatasetTable = {
    name: 'participants',
    description: 'One row per participant of the study (withdrawn participants are left out, with their families).',
    fields: [
      f('participant_id', 'string', 'The pseudonymous participant id.', true),
      f('family_id', 'string', 'The family they wrote in.', true),
      f('condition', 'string', 'The condition they were assigned to.', true),
      f('status', 'string', 'consented, active, finished or timed_out.', true),
      f('started_at', 'datetime', 'When they joined.', true),
      f('finished_at', 'datetime', 'When they pressed Finish; empty otherwise.'),
      f('last_activity_at', 'datetime', 'Their last state-changing request.', true),
      ...(input.includePid
        ? [
            f('pid', 'string', 'The id the link carried (`?pid=` or `PROLIFIC_PID`); only when the export asked for it.'),
            f('prolific_study_id', 'string', 'Prolific’s STUDY_ID, when given.'),
            f('prolific_session_id', 'string', 'Prolific’s SESSION_ID, when given.'),
          ]
        : []),
    ],
    primaryKey: ['participant_id'],
    foreignKeys: [fk('family_id', 'families'), fk('condition', 'conditions', 'name')],
  };
  const conditions: DatasetTable = {
    name: 'conditions',
    description: 'One row per condition of the study.',
    fields: [
      f('name', 'string', 'The condition’s name.', true),
      f('model', 'string', 'The model it names.', true),
      f('system_prompt', 'string', 'Instructions added to the agent’s on every turn; empty for none.'),
      f('tools', 'string', 'The agent’s tools it keeps, space-separated; empty for all.'),
      f('branching', 'boolean', 'Whether its participants could branch.', true),
      f('weight', 'integer', 'Its weight in the assignment.', true),
    ],
    primaryKey: ['name'],
    foreignKeys: [],
  };
  return [
    ...DATASET_TABLES.map((table) =>
      table.name === 'families'
        ? {
            ...table,
            fields: [...table.fields, f('participant_id', 'string', 'The participant whose family it is.', true)],
            foreignKeys: [...table.foreignKeys, fk('participant_id', 'participants')],
          }
        : table,
    ),
    participants,
    conditions,
  ];
}

/** `datapackage.json`: one tabular resource per table, named like it, fields in column order. */
export function dataPackageDescriptor(input: {
  name: string;
  title: string;
  created: string;
  pseudonymized: boolean;
  tables?: readonly DatasetTable[] | undefined;
}): object {
  return {
    profile: 'tabular-data-package',
    name: input.name,
    title: input.title,
    created: input.created,
    description: `A Trellis family as flat tables${input.pseudonymized ? ' (user ids and emails replaced by salted hashes; message text kept verbatim)' : ''}.`,
    resources: (input.tables ?? DATASET_TABLES).map((table) => ({
      name: table.name,
      path: `${table.name}.csv`,
      profile: 'tabular-data-resource',
      format: 'csv',
      mediatype: 'text/csv',
      encoding: 'utf-8',
      description: table.description,
      dialect: { delimiter: ',', header: true, doubleQuote: true, lineTerminator: '\n' },
      schema: {
        fields: table.fields.map((field) => ({
          name: field.name,
          type: field.type,
          description: field.description,
          ...(field.type === 'boolean' ? { trueValues: ['true'], falseValues: ['false'] } : {}),
          ...(field.required ? { constraints: { required: true } } : {}),
        })),
        primaryKey: table.primaryKey,
        foreignKeys: table.foreignKeys.map((key) => ({ fields: [key.field], reference: { resource: key.resource, fields: [key.target] } })),
        missingValues: [''],
      },
    })),
  };
}

/** A row as CSV cells in the table's column order: empty for missing, ISO for dates, true/false. */
export function datasetCells(table: DatasetTable, row: DatasetRow): string[] {
  return table.fields.map((field) => {
    const value = row[field.name];
    if (value === null || value === undefined) return '';
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    return String(value);
  });
}

/** `docs/dataset.md`, generated from the same declaration. */
export function datasetMarkdown(): string {
  const out = [
    '# The research dataset',
    '',
    '<!-- Generated from packages/domain/src/dataset/tables.ts by `npm run docs:dataset`; a unit test fails when it drifts. -->',
    '',
    '`GET /api/conversations/{id}/export?format=dataset` (one family) or `GET /api/export?format=dataset` (all of yours)',
    'answers a zip that is a [Frictionless Tabular Data Package](https://specs.frictionlessdata.io/tabular-data-package/):',
    '`datapackage.json` and one UTF-8 CSV per table below, with a header row. Every id joins; `steps.parent_step_id`',
    'alone rebuilds the family’s tree. `&pseudonymize=true` replaces user ids and emails with salted hashes (the salt is',
    'not in the package); message text, documents and tool arguments are kept verbatim.',
    '',
  ];
  for (const table of DATASET_TABLES) {
    out.push(`## ${table.name}.csv`, '', table.description, '');
    out.push(`Primary key: ${table.primaryKey.map((k) => `\`${k}\``).join(', ')}.`);
    for (const key of table.foreignKeys) out.push(`\`${key.field}\` → \`${key.resource}.${key.target}\`.`);
    out.push('', '| field | type | required | description |', '| --- | --- | --- | --- |');
    for (const field of table.fields) out.push(`| \`${field.name}\` | ${field.type} | ${field.required ? 'yes' : ''} | ${field.description} |`);
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/**
 * Checks parsed CSV rows against their tables: types, required fields, unique primary keys and
 * foreign keys that resolve (an empty reference is allowed). Returns the problems found.
 */
export function validateDataset(
  tables: Readonly<Record<string, readonly Record<string, string>[]>>,
  declared: readonly DatasetTable[] = DATASET_TABLES,
): string[] {
  const problems: string[] = [];
  const keysOf = new Map<string, Set<string>>();
  for (const table of declared) {
    const rows = tables[table.name];
    if (rows === undefined) {
      problems.push(`${table.name}: missing`);
      continue;
    }
    const primary = new Set<string>();
    rows.forEach((row, i) => {
      const at = `${table.name} row ${i + 1}`;
      const columns = Object.keys(row);
      if (columns.join(',') !== table.fields.map((field) => field.name).join(',')) problems.push(`${at}: columns ${columns.join(',')}`);
      for (const field of table.fields) {
        const value = row[field.name] ?? '';
        if (value === '') {
          if (field.required) problems.push(`${at}: ${field.name} is required`);
          continue;
        }
        if (!fits(field.type, value)) problems.push(`${at}: ${field.name} is not a ${field.type}: ${value.slice(0, 40)}`);
      }
      const key = table.primaryKey.map((name) => row[name] ?? '').join('\u0000');
      if (primary.has(key)) problems.push(`${at}: duplicate primary key`);
      primary.add(key);
    });
    if (table.primaryKey.length === 1) keysOf.set(table.name, new Set(rows.map((row) => row[table.primaryKey[0]!] ?? '')));
  }
  for (const table of declared) {
    for (const { field, resource } of table.foreignKeys) {
      const targets = keysOf.get(resource);
      if (!targets) continue;
      (tables[table.name] ?? []).forEach((row, i) => {
        const value = row[field] ?? '';
        if (value !== '' && !targets.has(value)) problems.push(`${table.name} row ${i + 1}: ${field} ${value} is not in ${resource}`);
      });
    }
  }
  return problems;
}

function fits(type: FieldType, value: string): boolean {
  switch (type) {
    case 'string':
      return true;
    case 'integer':
      return /^-?\d+$/.test(value);
    case 'number':
      return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value);
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'datetime':
      return !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value);
  }
}
