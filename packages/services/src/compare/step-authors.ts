// Who did what at a step ("you +120 words · agent +340 words" and the items each
// side changed), for the step detail beside the compare.
import { sql } from 'drizzle-orm';
import { summarizeStep, type StepChanges } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { onPath, pathSegments } from '../changes/path-log';
import type { PathLineageRow } from '../lineage/load-lineage';
import { readAuthorship } from '../authorship/get-authorship';

type StepItem = StepChanges['by_author']['person_items'][number];

/**
 * The words of the document after step k that step k wrote, by author (the overlay's spans of the
 * restored step k, so the two agree), and the preferences, todos and artifacts each side changed in
 * step k's rows of the path's change log (during turn k, or by hand before turn k+1).
 */
export async function readStepAuthors(
  db: DbOrTx,
  lineage: readonly PathLineageRow[],
  k: number,
): Promise<StepChanges['by_author']> {
  const segments = pathSegments(lineage);
  const [{ state }, rows] = await Promise.all([
    readAuthorship(db, segments, k),
    db.execute<{ actor: 'person' | 'agent'; kind: StepItem['kind']; key: string }>(sql`
      select w.actor, w.kind, w.key, min(w.seq) as first
      from workspace_changes w
      where ${onPath(segments, 'w', null)} and w.turn = ${k}
        and w.kind in ('preference', 'todo', 'artifact') and w.key is not null and w.actor in ('person', 'agent')
      group by w.actor, w.kind, w.key
      order by first`),
  ]);
  const items = (actor: 'person' | 'agent') =>
    rows.filter((r) => r.actor === actor).map((r): StepItem => ({ kind: r.kind, key: r.key }));
  return {
    words: summarizeStep(state.text, state.spans, k),
    person_items: items('person'),
    agent_items: items('agent'),
  };
}
