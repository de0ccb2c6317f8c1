// fast-check generator of Claude Code files written over a known conversation tree, then broken
// the ways real writers break them (docs/transcripts.md, "What counts as a conversation"). The
// true tree is a main line of answered turns and forks off it (a prompt asked again, a reply
// regenerated), each going on for a few turns: its conversations are its leaves, 1 + forks. The
// file then holds, on top of it, any mix of:
// - re-append: a resumed IDE session writes the main line's first turns again under new uuids
//   (the first prompt split in two records, an IDE context block first), same message ids, and
//   goes on below the copy;
// - replay: the last answered turn written again as a sibling (new uuids, same message ids) just
//   before the next prompt, which hangs below the replay;
// - lost parents: records whose parent (the record written just before them) was never written;
// - progress carry: at a tool call, the result and the assistant's work below it form a dead
//   end, while the next prompt hangs on a progress record below the same tool_use;
// - error parent: an `api_error` retry record beside the final answer, with the stop-hook
//   summary and the next prompt below the error;
// - drafts: prompts sent and withdrawn before any reply, beside the prompt that was answered;
// - copied session: the file starts with another session's run (same uuids, written twice),
//   then this session's own root.
import fc from 'fast-check';
import {
  ccAssistant,
  ccProgress,
  ccSystem,
  ccToolResult,
  ccUser,
  text,
  thinking,
  toolUse,
} from '../readers/fixtures/claude-code-lines';

type Json = Record<string, unknown>;

const turnArbitrary = fc.record({
  tool: fc.boolean(),
  thinking: fc.boolean(),
  drafts: fc.constantFrom<number>(0, 0, 0, 1, 2),
  replay: fc.constantFrom(false, false, false, true),
  carry: fc.constantFrom('none', 'none', 'progress', 'error'),
  turnDuration: fc.boolean(),
});

const forkArbitrary = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('reask', 'regenerate'),
  turns: fc.integer({ min: 0, max: 2 }),
});

export const trueTreeArbitrary = fc.record({
  turns: fc.array(turnArbitrary, { minLength: 1, maxLength: 6 }),
  forks: fc.array(forkArbitrary, { maxLength: 3 }),
  /** After this main-line turn (modulo the turns), the session is written again from its start. */
  reappendAfter: fc.option(fc.nat(), { nil: undefined }),
  /** Indices (modulo the records) of records whose parent is the record written before them. */
  lostParents: fc.array(fc.nat(), { maxLength: 4 }),
  copiedSession: fc.constantFrom('none', 'none', 'once', 'twice'),
});

export type TrueTree = typeof trueTreeArbitrary extends fc.Arbitrary<infer T> ? T : never;

export interface WrittenTree {
  text: string;
  /** The conversations a person counts: the true tree's leaves (and the copied session's). */
  conversations: number;
}

/** A turn as written again: the same blocks, without drafts or bookkeeping around them. */
const plain = (turn: TrueTree['turns'][number]): TrueTree['turns'][number] => ({
  ...turn,
  drafts: 0,
  replay: false,
  carry: 'none',
});

export function writeTrueTree(tree: TrueTree): WrittenTree {
  const lines: Json[] = [];
  let serial = 0;
  const id = (prefix: string) => `${prefix}-${serial++}`;
  let conversations = 1 + tree.forks.length;

  if (tree.copiedSession !== 'none') {
    const copied = [
      ccUser('plan-u', null, 'plan the change', { sessionId: 'earlier' }),
      ccAssistant('plan-a', 'plan-u', 'msg-plan', text('here is the plan'), { sessionId: 'earlier' }),
    ];
    lines.push(...copied);
    if (tree.copiedSession === 'twice') lines.push(...copied.map((line) => ({ ...line })));
    conversations++;
  }

  /** Writes one answered turn below `parent`; returns the record the next turn hangs on. */
  const writeTurn = (
    parent: string | null,
    prompt: string,
    turn: TrueTree['turns'][number] | undefined,
    replyMessage: string,
  ): { next: string; promptUuid: string; records: Json[]; nextBelow?: string } => {
    const records: Json[] = [];
    const promptUuid = id('u');
    for (let d = 0; d < (turn?.drafts ?? 0); d++)
      records.push(ccUser(id('draft'), parent, `${prompt} (draft ${d})`));
    records.push(ccUser(promptUuid, parent, prompt));
    let last = promptUuid;
    if (turn?.thinking === true) {
      const think = id('think');
      records.push(ccAssistant(think, last, replyMessage, thinking('considering')));
      last = think;
    }
    let nextBelow: string | undefined;
    if (turn?.tool === true) {
      const call = id('call');
      const toolId = id('toolu');
      records.push(ccAssistant(call, last, replyMessage, toolUse(toolId, 'Bash', { command: 'ls' })));
      const progress = id('progress');
      if (turn.carry === 'progress') records.push(ccProgress(progress, call, toolId));
      const result = id('result');
      records.push(ccToolResult(result, call, toolId, 'listing'));
      last = result;
      if (turn.carry === 'progress') nextBelow = progress;
    }
    let replyParent = last;
    if (turn?.carry === 'error') {
      const error = id('error');
      records.push(ccSystem(error, replyParent, 'api_error', { level: 'error' }));
      const reply = id('a');
      records.push(ccAssistant(reply, replyParent, `${replyMessage}-final`, text(`answer to ${prompt}`)));
      const hook = id('hook');
      records.push(ccSystem(hook, error, 'stop_hook_summary'));
      return { next: reply, promptUuid, records, nextBelow: hook };
    }
    const reply = id('a');
    records.push(ccAssistant(reply, replyParent, `${replyMessage}-final`, text(`answer to ${prompt}`)));
    replyParent = reply;
    if (turn?.turnDuration === true) {
      const duration = id('duration');
      records.push(ccSystem(duration, reply, 'turn_duration'));
      replyParent = duration;
    }
    return { next: replyParent, promptUuid, records, ...(nextBelow !== undefined && { nextBelow }) };
  };

  // The main line: per turn, the record its prompt hung on and the record it ends with.
  const hungOn: (string | null)[] = [];
  const endsWith: string[] = [];
  const promptOf: string[] = [];
  let parent: string | null = null;
  let below: string | undefined;
  const reappendAfter =
    tree.reappendAfter === undefined || tree.turns.length < 2
      ? undefined
      : tree.reappendAfter % (tree.turns.length - 1);
  const mainRecords: Json[] = [];
  tree.turns.forEach((turn, t) => {
    const from: string | null = below ?? parent;
    const written = writeTurn(from, `prompt ${t}`, turn, `msg-${t}`);
    mainRecords.push(...written.records);
    hungOn.push(from);
    promptOf.push(written.promptUuid);
    endsWith.push(written.next);
    parent = written.next;
    below = written.nextBelow;
    const isLast = t === tree.turns.length - 1;
    if (turn.replay && !isLast && below === undefined) {
      // The turn written again beside itself, same message ids; the session goes on below it.
      const replay = writeTurn(from, `prompt ${t}`, plain(turn), `msg-${t}`);
      mainRecords.push(...replay.records);
      parent = replay.next;
    }
    if (reappendAfter === t && !isLast) {
      // Written again from the start under new uuids; the first prompt split in two records.
      let copyParent: string | null = null;
      const context = id('ide');
      mainRecords.push(ccUser(context, null, '<ide_opened_file>The user opened a file.</ide_opened_file>'));
      copyParent = context;
      for (let c = 0; c <= t; c++) {
        const copy = writeTurn(copyParent, `prompt ${c}`, plain(tree.turns[c]!), `msg-${c}`);
        mainRecords.push(...copy.records);
        copyParent = copy.next;
      }
      parent = copyParent;
      below = undefined;
    }
  });
  lines.push(...mainRecords);

  // Forks, written after the main line (a person went back).
  for (const fork of tree.forks) {
    const at = fork.at % tree.turns.length;
    let forkParent: string | null;
    const records: Json[] = [];
    if (fork.kind === 'reask') {
      const first = writeTurn(hungOn[at]!, `prompt ${at}, asked again`, undefined, id('msg-fork'));
      records.push(...first.records);
      forkParent = first.next;
    } else {
      const reply = id('a');
      records.push(ccAssistant(reply, promptOf[at]!, id('msg-regen'), text(`another answer ${at}`)));
      forkParent = reply;
    }
    for (let n = 0; n < fork.turns; n++) {
      const next = writeTurn(forkParent, `fork prompt ${n}`, undefined, id('msg-fork'));
      records.push(...next.records);
      forkParent = next.next;
    }
    lines.push(...records);
  }

  // Lost parents: only where the parent is the record written just before, as writers lose them.
  const candidates: number[] = [];
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.parentUuid !== null && line.parentUuid === lines[index - 1]!.uuid) candidates.push(index);
  }
  if (candidates.length > 0) {
    for (const pick of tree.lostParents) {
      const index = candidates[pick % candidates.length]!;
      lines[index] = { ...lines[index]!, parentUuid: `never-written-${index}` };
    }
  }
  return { text: lines.map((line) => JSON.stringify(line)).join('\n'), conversations };
}
