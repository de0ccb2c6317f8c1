import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATASET_TABLES, dataPackageDescriptor, datasetCells, datasetMarkdown, validateDataset } from './tables';

describe('the dataset tables', () => {
  it('docs/dataset.md is generated from the same declaration (run `npm run docs:dataset` after changing it)', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../../../docs/dataset.md'), 'utf8');
    expect(doc).toBe(datasetMarkdown());
  });

  it('describes every table as a tabular resource with its fields in column order, keys and foreign keys', () => {
    const descriptor = dataPackageDescriptor({ name: 'n', title: 't', created: '2026-01-01T00:00:00Z', pseudonymized: false }) as {
      profile: string;
      resources: { name: string; path: string; schema: { fields: { name: string }[]; primaryKey: string[]; foreignKeys: { reference: { resource: string } }[] } }[];
    };
    expect(descriptor.profile).toBe('tabular-data-package');
    const names = descriptor.resources.map((r) => r.name);
    for (const resource of descriptor.resources) {
      expect(resource.path).toBe(`${resource.name}.csv`);
      for (const key of resource.schema.primaryKey) expect(resource.schema.fields.map((f) => f.name)).toContain(key);
      for (const fk of resource.schema.foreignKeys) expect(names).toContain(fk.reference.resource);
    }
  });

  it('writes cells in column order: empty for missing values, true/false for booleans', () => {
    const paths = DATASET_TABLES.find((t) => t.name === 'paths')!;
    expect(datasetCells(paths, { path_id: 'p', family_id: 'f', starred: true, archived: false, deleted: false, title: 'T', created_at: 'x' })).toEqual([
      'p', 'f', '', '', '', 'T', 'true', 'false', 'false', 'x',
    ]);
  });

  it('finds wrong types, missing required values, duplicate keys and dangling references', () => {
    const empty = Object.fromEntries(DATASET_TABLES.map((t) => [t.name, [] as Record<string, string>[]]));
    const step = (id: string, parent: string, turn: string) => ({
      step_id: id, parent_step_id: parent, path_id: 'p', turn, label: '1', depth: '0', user_message: '', started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '', status: '', person_words: '0', agent_words: '0', agent_edited_words: '0', items_added: '', items_removed: '', items_edited: '',
    });
    const tables = {
      ...empty,
      families: [{ family_id: 'p', owner_id: 'u', owner_email: '', role: 'owner', title: 'T', created_at: '2026-01-01T00:00:00.000Z' }],
      paths: [{ path_id: 'p', family_id: 'p', parent_path_id: '', branch_point: '', reason: '', title: 'T', starred: 'false', archived: 'false', deleted: 'false', created_at: '2026-01-01T00:00:00.000Z' }],
      steps: [step('p:1', '', '1'), step('p:1', '', 'one'), step('p:2', 'p:9', '2')],
    };
    expect(validateDataset(tables)).toEqual([
      'steps row 2: turn is not a integer: one',
      'steps row 2: duplicate primary key',
      'steps row 3: parent_step_id p:9 is not in steps',
    ]);
  });
});
