// A family at the size a real review grew to: 64 steps and 13 paths with long titles, made through
// the REST API (as a person would through the studio) for browser tests and screenshots: a 12-step
// root, nine branches opened at different steps (one a branch of a branch of a branch), and three
// regenerations of the root's step 3 reply. Each step's message opens with "Section N." and appends
// that section to the document. The history (history-and-search.spec.ts) and the map
// (family-map.spec.ts) are tested on it.
//
//   node --import tsx apps/studio/e2e/support/make-large-family.ts <baseUrl> [email]
//
// signs a new user up on a running studio and prints the family as JSON.
import { ApiClient } from './api-client';

export interface LargeFamily {
  rootThreadId: string;
  /** Every path, in the order made: the root, the nine branches, then the three regenerations. */
  threadIds: string[];
  /** The three regenerations of the root's reply at `regeneratedStep` (folded into one history row, stacked on one map card). */
  regenerationIds: string[];
  regeneratedStep: number;
  /** The starred branch. */
  starredThreadId: string;
  /** A sentence in the document from the root's step 1 on: present in every later document version. */
  keptSentence: string;
  /** A word only `keptSentence` holds, to search for. */
  keptWord: string;
  /** Titles as the history should show them (plain text), by thread id. */
  titles: Map<string, string>;
  /** Steps in the family graph (64). */
  stepCount: number;
}

const ROOT_STEPS = 12;
/** Branches: [parent index in `threads` (0 = root), branch point, steps, title given by a rename or null]. */
const BRANCHES: [number, number, number, string | null][] = [
  [0, 3, 6, 'An alternative structure for the findings, with the methods first'],
  [0, 5, 6, null],
  [1, 5, 6, 'Shorter review for the workshop version, cutting related work entirely'],
  [0, 8, 6, 'Reviewer two’s reading of the statistical analysis and its caveats'],
  [2, 7, 5, null],
  [0, 10, 5, 'Conclusion rewritten around the limitations the authors admit to'],
  [4, 9, 5, 'A friendlier tone for the summary paragraph, aimed at newcomers'],
  [3, 6, 5, null],
  [0, 2, 5, 'Start again from the abstract: what the paper claims in one page'],
];
const REGENERATED_STEP = 3;

const SECTION_NAMES = [
  'Introduction and the question the paper sets out to answer',
  'Related work and where this paper sits among earlier studies',
  'Methods: the cohort, the measurements and the analysis plan',
  'Findings and the open questions they leave for the authors',
  'Statistical analysis, the effect sizes and their intervals',
  'Threats to validity that the authors discuss and those they do not',
  'Reproducibility: data, code and what a reader can check',
  'Presentation: figures, tables and the order of the argument',
  'Minor points, typos and references that need fixing',
  'Limitations and what the paper should not be read to claim',
  'Recommendation to the editor and the changes it depends on',
  'Summary of the review in three sentences for the authors',
];

/** A default title is cut at 60 characters, as the server cuts it. */
function clampTitle(title: string): string {
  return title.length > 60 ? `${title.slice(0, 59)}…` : title;
}

/** Sends a message and reads its event stream to the end; throws on a refusal or a failed reply. */
export async function sendAndWait(client: ApiClient, threadId: string, content: string): Promise<void> {
  await drain(await client.request('POST', `/api/conversations/${threadId}/messages`, { content }), `send on ${threadId}`);
}

async function drain(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${text}`);
  if (/event: error/.test(text)) throw new Error(`${what}: the turn failed:\n${text.slice(-400)}`);
  return text;
}

/** The heading a step's message opens with, which is also the default title of a path it starts. */
function sectionHeading(step: number, suffix: string): string {
  return `Section ${step}${suffix}. ${SECTION_NAMES[(step - 1) % SECTION_NAMES.length]!}`;
}

function sectionMessage(step: number, suffix: string): string {
  const heading = sectionHeading(step, suffix);
  return `${heading}\nappend: ## ${heading}\n\nThe ${suffix === '' ? 'first' : 'next'} draft of this section, step ${step}${suffix}.`;
}

/** Makes the family on `client`'s account (signed in already) and describes it. */
export async function makeLargeFamily(client: ApiClient): Promise<LargeFamily> {
  const marker = `heliotrope${Math.random().toString(36).slice(2, 7).replace(/\d/g, 'q')}`;
  const keptSentence = `The ${marker} cohort results hold across every site the authors visited.`;
  const titles = new Map<string, string>();

  const root = (await client.json<{ thread_id: string }>('POST', '/api/conversations', {}, 201)).thread_id;
  await sendAndWait(client, root, sectionMessage(1, ''));
  // The kept sentence goes into the document by an edit, not a message, so only document versions hold it.
  const workspace = await client.json<{ document: { content: string } }>('GET', `/api/conversations/${root}/workspace`);
  await client.json('PATCH', `/api/conversations/${root}/workspace`, {
    document: { content: `${workspace.document.content}\n\n${keptSentence}\n` },
  });
  for (let step = 2; step <= ROOT_STEPS; step++) await sendAndWait(client, root, sectionMessage(step, ''));
  titles.set(root, clampTitle(sectionHeading(1, '')));

  const threads = [root];
  const branchIds: string[] = [];
  for (const [index, [parentIndex, at, steps, rename]] of BRANCHES.entries()) {
    const parent = threads[parentIndex]!;
    const branch = (
      await client.json<{ thread_id: string }>('POST', `/api/conversations/${parent}/branch`, { from_turn: at }, 201)
    ).thread_id;
    const suffix = String.fromCharCode(98 + index); // b, c, d, …
    for (let step = at + 1; step <= at + steps; step++) await sendAndWait(client, branch, sectionMessage(step, suffix));
    titles.set(branch, clampTitle(sectionHeading(at + 1, suffix)));
    if (rename !== null) {
      await client.json('PATCH', `/api/conversations/${branch}`, { title: rename });
      titles.set(branch, rename);
    }
    threads.push(branch);
    branchIds.push(branch);
  }
  const starredThreadId = branchIds[3]!;
  await client.json('PATCH', `/api/conversations/${starredThreadId}`, { starred: true });

  const regenerationIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const text = await drain(
      await client.request('POST', `/api/conversations/${root}/turns/${REGENERATED_STEP}/regenerate`),
      'regenerate',
    );
    const branch = /event: branch\ndata: (\{.*\})/.exec(text)?.[1];
    if (branch === undefined) throw new Error(`no branch event in:\n${text.slice(0, 400)}`);
    regenerationIds.push((JSON.parse(branch) as { thread_id: string }).thread_id);
  }

  const graph = await client.json<{ nodes: unknown[]; threads: unknown[] }>('GET', `/api/conversations/${root}/graph`);
  return {
    rootThreadId: root,
    threadIds: [...threads, ...regenerationIds],
    regenerationIds,
    regeneratedStep: REGENERATED_STEP,
    starredThreadId,
    keptSentence,
    keptWord: marker,
    titles,
    stepCount: graph.nodes.length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl, email = `family-${Date.now()}@example.test`] = process.argv.slice(2);
  if (baseUrl === undefined) throw new Error('usage: make-large-family.ts <baseUrl> [email]');
  const client = new ApiClient(baseUrl);
  await client.signUp(email);
  const family = await makeLargeFamily(client);
  console.log(JSON.stringify({ email, ...family, titles: Object.fromEntries(family.titles) }, null, 2));
}
