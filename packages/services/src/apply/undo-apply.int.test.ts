// Placing an applied section and undoing an apply, through the services on real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeIdParamSchema } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { createBranch } from '../branching/create-branch';
import { getFamilyGraph } from '../graph/get-family-graph';
import { getWorkspace } from '../workspace/get-workspace';
import { createPreference } from '../workspace/create-preference';
import { patchWorkspace } from '../workspace/patch-workspace';
import { applyItems } from './apply-items';
import { undoApply } from './undo-apply';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Actor = { userId: string };
const node = (threadId: string, turn: number) => NodeIdParamSchema.parse(`${threadId}:${turn}`);

/** A root whose step 2 has a "Moderators" section between Findings and References; B branches at 1 without it. */
async function family(actor: Actor) {
  const root = await h.newConversation(actor, 'Review');
  await h.turn(actor, root, 'doc: # Review\n\n## Findings\nF.\n\n## References\nR.\nprefer: Plain words');
  const target = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
  await h.turn(actor, target, 'append: More findings.');
  await h.turn(actor, root, 'doc: # Review\n\n## Findings\nF.\n\n## Moderators\nAge matters.\n\n## References\nR.\nprefer: Define every term');
  return { root, target };
}

describe('placing an applied section', () => {
  it('lands where it stands on the source by default, and where asked otherwise', async () => {
    const actor = await h.newUser();
    const { root, target } = await family(actor);
    const dry = await applyItems(h.deps, actor, { threadId: target, source: node(root, 2), items: [{ kind: 'section', heading: 'Moderators' }], dryRun: true });
    expect(dry.applied[0]!.effect).toBe('added');
    const applied = await applyItems(h.deps, actor, {
      threadId: target,
      source: node(root, 2),
      items: [{ kind: 'section', heading: 'Moderators', place: { before: 'Findings' } }],
    });
    expect(applied.applied[0]!.effect).toBe('added');
    const doc = (await getWorkspace(h.deps, actor, { threadId: target })).document.content;
    expect(doc.indexOf('## Moderators')).toBeLessThan(doc.indexOf('## Findings'));
    await expectCode(
      applyItems(h.deps, actor, { threadId: target, source: node(root, 2), items: [{ kind: 'section', heading: 'Moderators', place: { after: 'Nowhere' } }] }),
      'conflict',
    );
  });
});

describe('undoing an apply', () => {
  it('puts every applied item back as before, as a new step with an edge from the apply', async () => {
    const actor = await h.newUser();
    const { root, target } = await family(actor);
    const before = await getWorkspace(h.deps, actor, { threadId: target });
    const root2 = await getWorkspace(h.deps, actor, { threadId: root });
    const define = root2.preferences.find((p) => p.text === 'Define every term')!;
    const applied = await applyItems(h.deps, actor, {
      threadId: target,
      source: node(root, 2),
      items: [{ kind: 'section', heading: 'Moderators' }, { kind: 'preference', key: define.key! }],
    });
    const afterApply = await getWorkspace(h.deps, actor, { threadId: target });
    expect(afterApply.document.content).toContain('## Moderators');
    expect(afterApply.document.content.indexOf('## Moderators')).toBeLessThan(afterApply.document.content.indexOf('## References'));
    expect(afterApply.preferences.map((p) => p.text)).toContain('Define every term');

    const undo = await undoApply(h.deps, actor, { threadId: target, turn: applied.turn_index });
    expect(undo.turn_index).toBe(applied.turn_index + 1);
    expect(undo.undoes.label).toBe(applied.label);
    const after = await getWorkspace(h.deps, actor, { threadId: target });
    expect(after.document.content).toBe(before.document.content);
    expect(after.preferences.map((p) => [p.key, p.text, p.locked])).toEqual(before.preferences.map((p) => [p.key, p.text, p.locked]));

    const graph = await getFamilyGraph(h.deps, actor, { threadId: target });
    const edge = graph.edges.find((e) => e.kind === 'apply' && e.target === `${target}:${undo.turn_index}`);
    expect(edge?.source).toBe(`${target}:${applied.turn_index}`);
    await expectCode(undoApply(h.deps, actor, { threadId: target, turn: applied.turn_index }), 'conflict');
  });

  it('is refused when a later change touched the applied section itself, naming what changed', async () => {
    const actor = await h.newUser();
    const { root, target } = await family(actor);
    const applied = await applyItems(h.deps, actor, { threadId: target, source: node(root, 2), items: [{ kind: 'section', heading: 'Moderators' }] });
    const live = await getWorkspace(h.deps, actor, { threadId: target });
    await patchWorkspace(h.deps, actor, {
      threadId: target,
      patch: { document: { content: live.document.content.replace('Age matters.', 'Age matters, and so does income.') } },
    });
    const error = await undoApply(h.deps, actor, { threadId: target, turn: applied.turn_index }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'conflict' });
    expect((error as Error).message).toMatch(/you changed the document at step/);
  });

  it('after an unrelated edit in another section, reverts the apply on top of it and restores only the applied items', async () => {
    const actor = await h.newUser();
    const { root, target } = await family(actor);
    const before = await getWorkspace(h.deps, actor, { threadId: target });
    const define = (await getWorkspace(h.deps, actor, { threadId: root })).preferences.find((p) => p.text === 'Define every term')!;
    const applied = await applyItems(h.deps, actor, {
      threadId: target,
      source: node(root, 2),
      items: [{ kind: 'section', heading: 'Moderators' }, { kind: 'preference', key: define.key! }],
    });
    // Later, elsewhere: the person rewrites a line of another section and adds a preference of their own.
    const live = await getWorkspace(h.deps, actor, { threadId: target });
    await patchWorkspace(h.deps, actor, {
      threadId: target,
      patch: { document: { content: live.document.content.replace('R.', 'R., checked by hand.'), base_version: live.document.version } },
    });
    await createPreference(h.deps, actor, { threadId: target, preference: { text: 'Quote sparingly' } });

    const undo = await undoApply(h.deps, actor, { threadId: target, turn: applied.turn_index });
    expect(undo.restored).toEqual(['document', '1 preference']);
    const after = await getWorkspace(h.deps, actor, { threadId: target });
    expect(after.document.content).toBe(before.document.content.replace('R.', 'R., checked by hand.'));
    expect(after.document.content).not.toContain('Moderators');
    expect(after.preferences.map((p) => p.text)).toEqual([...before.preferences.map((p) => p.text), 'Quote sparingly']);
  });

  it('is a 404 for a step that is not an apply, and someone else cannot undo', async () => {
    const actor = await h.newUser();
    const stranger = await h.newUser();
    const { target } = await family(actor);
    await expectCode(undoApply(h.deps, actor, { threadId: target, turn: 2 }), 'not_found');
    await expectCode(undoApply(h.deps, stranger, { threadId: target, turn: 2 }), 'forbidden');
  });
});
