/**
 * Families for the panel benchmark and its screenshots, built the way the studio builds them (turns
 * appended, branches opened at valid steps) and assembled by the domain, exactly as the graph route
 * would answer.
 */
import { assembleFamilyGraph, type FamilyGraph } from '@trellis/domain';
import { FamilyBuilder } from '@trellis/domain/graph/testing';

export interface PanelScenario {
  readonly graph: FamilyGraph;
  readonly displayedThreadId: string;
  readonly currentNodeId: string | null;
}

/** Deterministic PRNG (mulberry32), so every run benchmarks the same family. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const QUESTIONS = [
  'Tighten the abstract and keep it under 150 words',
  'Add the 2019 field-trial citations to section 2',
  'Compare drought response across the three sites',
  'Rewrite the methods for a policy audience',
  'Draft the limitations paragraph',
  'Turn the results table into prose',
];

/**
 * About `totalNodes` steps: a root path with ~30 % of them, then branches of 1–12 steps opened at
 * random valid points of random paths (one in twenty left without a turn: a stub head). The displayed
 * path is the deepest one, "you are here" its tip.
 */
export function syntheticScenario(totalNodes: number, seed = 7): PanelScenario {
  const next = random(seed);
  const family = new FamilyBuilder();
  const root = family.root('Soil microbiome review');
  let count = 0;
  const turn = (threadId: string) => {
    const index = family.lastTurn(threadId) + 1;
    family.turn(threadId, {
      user_message: `${QUESTIONS[Math.floor(next() * QUESTIONS.length)]} (${index})`,
      reply_preview: `Done: revised ${1 + Math.floor(next() * 4)} paragraphs and updated the outline.`,
      tool_count: Math.floor(next() * 4),
      artifact_count: Math.floor(next() * 2),
    });
    count++;
  };
  const rootLength = Math.max(6, Math.round(totalNodes * 0.3));
  for (let i = 0; i < rootLength; i++) turn(root);
  const depth = new Map([[root, 0]]);
  while (count < totalNodes) {
    const ids = family.threadIds;
    const parent = ids[Math.floor(next() * ids.length)]!;
    const points = family.validBranchPoints(parent).filter((k) => k > 0);
    if (points.length === 0) continue;
    const branch = family.branch(
      parent,
      points[Math.floor(next() * points.length)]!,
      null,
      `Branch ${ids.length}`,
    );
    depth.set(branch, (depth.get(parent) ?? 0) + 1);
    if (next() < 0.05) continue;
    const length = Math.min(totalNodes - count, 1 + Math.floor(next() * 12));
    for (let i = 0; i < length; i++) turn(branch);
  }
  const displayed = [...depth.entries()]
    .filter(([threadId]) => family.lastTurn(threadId) > 0)
    .sort((a, b) => b[1] - a[1])[0]![0];
  const graph = assembleFamilyGraph({ requestedThreadId: displayed, ...family.rows(), maxNodes: totalNodes });
  return { graph, displayedThreadId: displayed, currentNodeId: `${displayed}:${family.lastTurn(displayed)}` };
}

/**
 * A readable family with five paths for screenshots: the root draft, two alternatives from past
 * steps, a branch of a branch, and a freshly opened path with no message yet.
 */
export interface ShowcaseThreads {
  readonly root: string;
  readonly bacteria: string;
  readonly policy: string;
  readonly fungi: string;
  readonly fresh: string;
}

export function showcaseScenario(): PanelScenario & { readonly threads: ShowcaseThreads } {
  const family = new FamilyBuilder();
  const step = (
    threadId: string,
    user_message: string,
    reply_preview: string,
    tool_count = 0,
    artifact_count = 0,
  ) => family.turn(threadId, { user_message, reply_preview, tool_count, artifact_count });

  const root = family.root('Soil microbiome review');
  step(
    root,
    'Outline a literature review on soil microbiome resilience',
    'Here is a five-section outline with a working title.',
    1,
    1,
  );
  step(
    root,
    'Expand section 2 on drought response',
    'Section 2 now covers osmotic stress and dormancy.',
    2,
    1,
  );
  step(root, 'Add citations for the 2019 field trials', 'Added 6 citations and a summary table.', 3, 1);
  step(root, 'Tighten the abstract to 150 words', 'Abstract trimmed to 148 words.', 0, 0);
  step(root, 'Draft the discussion section', 'Drafted the discussion around three open questions.', 1, 1);

  const bacteria = family.branch(root, 2, 'narrower scope', 'Bacteria only');
  step(bacteria, 'Focus on bacterial communities only', 'Refocused sections 2–4 on bacterial taxa.', 2, 1);
  step(
    bacteria,
    'Compare Actinobacteria and Proteobacteria',
    'Added a comparison paragraph and figure plan.',
    1,
    0,
  );
  step(bacteria, 'Summarise the comparison in a table', 'Table 2 summarises abundance shifts.', 1, 1);

  const policy = family.branch(root, 3, 'different audience', 'Policy brief');
  step(policy, 'Rewrite for a policy audience', 'Rewrote the draft as a four-page brief.', 1, 1);
  step(policy, 'Add three recommendations', 'Added recommendations with cost notes.', 0, 0);

  const fungi = family.branch(bacteria, 3, 'try fungi', 'Fungal networks');
  step(fungi, 'What about mycorrhizal fungi instead?', 'Drafted a section on mycorrhizal networks.', 2, 1);
  step(
    fungi,
    'Merge fungal networks into the discussion',
    'The discussion now links fungi and drought.',
    1,
    0,
  );

  const fresh = family.branch(root, 4, 'start over from the abstract', 'Shorter review');

  const graph = assembleFamilyGraph({ requestedThreadId: fungi, ...family.rows() });
  return {
    graph,
    displayedThreadId: fungi,
    currentNodeId: `${fungi}:${family.lastTurn(fungi)}`,
    threads: { root, bacteria, policy, fungi, fresh },
  };
}
