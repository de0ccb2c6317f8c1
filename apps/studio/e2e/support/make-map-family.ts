// Makes the family issue 22 was written about, through the REST API only: a three-page review grown
// to 64 steps on 13 paths with long titles — a 13-step root, three regenerations of step 3's reply,
// and nine branches (one of them a branch of a branch) opened at different steps.
import type { ApiClient } from './api-client';

export interface LargeFamily {
  /** The root path (13 steps). */
  readonly rootThreadId: string;
  /** The three regenerations of the root's step 3 reply (each one step). */
  readonly regenerations: readonly string[];
  /** The nine branches, oldest first. */
  readonly branches: readonly string[];
  /** Steps in the family (64) and paths (13). */
  readonly steps: number;
  readonly paths: number;
}

const SECTIONS = [
  'Scope and the question the review answers for the steering committee',
  'Methods: which field trials we kept, which we dropped and why',
  'Findings on drought response across the three sites, with the caveats',
  'Soil carbon: what the 2019 and 2021 samples say and do not say',
  'Costs per hectare and the sensitivity to the fertiliser price',
  'Risks for smallholders and the mitigation the partners proposed',
  'Recommendations, ordered by what the ministry can act on this year',
  'Limitations of the evidence and the studies we could not obtain',
  'Executive summary for readers who stop after the first page',
  'Glossary of the agronomy terms used in the findings section',
  'Annex: the interview guide and the list of people consulted',
  'Response to the reviewers of the first draft, point by point',
  'Final pass: consistency of numbers, units and citations throughout',
];

/** Sends one message on a thread and reads its event stream to the end. */
async function send(api: ApiClient, threadId: string, content: string): Promise<void> {
  const response = await api.request('POST', `/api/conversations/${threadId}/messages`, { content });
  if (!response.ok) throw new Error(`send on ${threadId}: ${response.status} ${await response.text()}`);
  await response.text();
}

async function regenerate(api: ApiClient, threadId: string, turn: number): Promise<string> {
  const response = await api.request('POST', `/api/conversations/${threadId}/turns/${turn}/regenerate`, undefined, {
    accept: 'text/event-stream',
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`regenerate ${threadId}@${turn}: ${response.status} ${text}`);
  const match = /"thread_id"\s*:\s*"(th_[0-9a-f]{32})"/.exec(text);
  if (!match) throw new Error(`regenerate ${threadId}@${turn}: no branch event`);
  return match[1]!;
}

async function branch(api: ApiClient, threadId: string, fromTurn: number, messages: readonly string[]): Promise<string> {
  const created = await api.json<{ thread_id: string }>('POST', `/api/conversations/${threadId}/branch`, { from_turn: fromTurn }, 201);
  for (const message of messages) await send(api, created.thread_id, message);
  return created.thread_id;
}

/** Builds the family for a signed-in `api`; about a minute with the offline model. */
export async function makeLargeFamily(api: ApiClient): Promise<LargeFamily> {
  const root = await api.json<{ thread_id: string }>('POST', '/api/conversations', { title: 'Field-trial review for the ministry' }, 201);
  const rootThreadId = root.thread_id;
  for (const [i, section] of SECTIONS.entries()) await send(api, rootThreadId, `Section ${i + 1}. ${section}`);

  const regenerations: string[] = [];
  for (let i = 0; i < 3; i++) regenerations.push(await regenerate(api, rootThreadId, 3));

  // [parent (index into `branches`, or -1 for the root), branch point, steps]: 48 steps in all.
  const plan: readonly [number, number, number][] = [
    [-1, 2, 8],
    [-1, 4, 7],
    [-1, 5, 6],
    [0, 5, 6],
    [-1, 7, 5],
    [-1, 8, 5],
    [-1, 10, 4],
    [1, 7, 4],
    [-1, 11, 3],
  ];
  const branches: string[] = [];
  for (const [n, [parent, at, steps]] of plan.entries()) {
    const from = parent === -1 ? rootThreadId : branches[parent]!;
    const messages = Array.from(
      { length: steps },
      (_, s) => `Alternative ${n + 1}, step ${at + s + 1}: rework "${SECTIONS[(at + s) % SECTIONS.length]}" for a policy audience`,
    );
    branches.push(await branch(api, from, at, messages));
  }
  return {
    rootThreadId,
    regenerations,
    branches,
    steps: SECTIONS.length + regenerations.length + plan.reduce((sum, [, , steps]) => sum + steps, 0),
    paths: 1 + regenerations.length + branches.length,
  };
}
