import type { FamilyGraph } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { mentionAt, pickerOptions } from './path-picker';

const node = (thread_id: string, turn_index: number, label: string, user_message: string) =>
  ({ id: `${thread_id}:${turn_index}`, thread_id, turn_index, label, user_message, reply_preview: null }) as FamilyGraph['nodes'][number];

const graph = {
  threads: [
    { thread_id: 'r', title: 'Root draft' },
    { thread_id: 'b', title: '**Drone** survey' },
  ],
  nodes: [node('r', 1, '1', 'doc: start'), node('r', 2, '2', 'more'), node('b', 2, '2.1', 'doc: drones'), node('b', 3, '3.1', 'tighten')],
} as unknown as FamilyGraph;

describe('the @ picker', () => {
  it('opens on an @word at the caret, not inside an address', () => {
    expect(mentionAt('see @2.', 7)).toEqual({ start: 4, query: '2.' });
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('mail a@b', 8)).toBeNull();
    expect(mentionAt('@x done', 7)).toBeNull();
  });

  it('lists the other paths’ steps, newest first, named in plain text, filtered by label, name or message', () => {
    const all = pickerOptions(graph, 'r', '');
    expect(all.map((o) => [o.label, o.title, o.isLatest])).toEqual([
      ['3.1', 'Drone survey', true],
      ['2.1', 'Drone survey', false],
    ]);
    expect(pickerOptions(graph, 'r', '2.1').map((o) => o.label)).toEqual(['2.1']);
    expect(pickerOptions(graph, 'r', 'tight').map((o) => o.label)).toEqual(['3.1']);
    expect(pickerOptions(graph, 'b', '').map((o) => o.label)).toEqual(['2', '1']);
    expect(pickerOptions(undefined, 'r', '')).toEqual([]);
  });
});
