// A literal, quadratic reading of docs/branching.md, "The transcript inspector's rules", used only as a test oracle for the linear
// inspector. It shares nothing with the implementation except buildOrderedUuidChain, whose own
// tests pin the chain rule; every other rule is re-stated here as plainly as possible. Leaves
// (collapse and antichain) follow the first-record parent links as written, round cycles too;
// the summary of a leaf reads its rebuilt chain, where a cycle is cut.
import { buildOrderedUuidChain } from '../chain';
import type { BranchSummary, ChatRecord, Diagnostic, InspectionResult } from '../types';

const NEUTRAL = ['custom_title', 'session_artifact_event', 'session_artifact_snapshot'];
const NOT_PROMPTS = ['notification', 'cron', 'mid_turn_user_message'];

export function referenceInspect(records: readonly ChatRecord[]): InspectionResult {
  const firstOf = new Map<string, ChatRecord>();
  const firstIndexOf = new Map<string, number>();
  records.forEach((record, index) => {
    if (!firstOf.has(record.uuid)) firstOf.set(record.uuid, record);
    if (!firstIndexOf.has(record.uuid)) firstIndexOf.set(record.uuid, index);
  });
  const uuids = [...firstOf.keys()];
  const first = (uuid: string) => firstOf.get(uuid)!;
  const chains = new Map(
    uuids.map((uuid) => [uuid, buildOrderedUuidChain(records, { leafUuid: uuid }).uuids]),
  );
  const chainOf = (uuid: string) => chains.get(uuid)!;

  const isNeutral = (uuid: string) =>
    first(uuid).type === 'system' && NEUTRAL.includes(first(uuid).subtype ?? '');
  const isRewind = (uuid: string) => first(uuid).type === 'system' && first(uuid).subtype === 'rewind';
  const isTerminal = (uuid: string) => !uuids.some((other) => first(other).parentUuid === uuid);

  /** Every uuid met walking up the first-record parent links, round a cycle once; self excluded unless on a cycle. */
  const ancestorsOf = (uuid: string): string[] => {
    const seen: string[] = [];
    let parent = first(uuid).parentUuid;
    while (parent !== null && firstOf.has(parent) && !seen.includes(parent)) {
      seen.push(parent);
      parent = first(parent).parentUuid;
    }
    return seen;
  };

  const lastTerminalOf = new Map<string, number>();
  for (const terminal of uuids.filter(isTerminal)) {
    const candidate = [terminal, ...ancestorsOf(terminal)].find((uuid) => !isNeutral(uuid));
    if (candidate === undefined) continue;
    lastTerminalOf.set(candidate, Math.max(lastTerminalOf.get(candidate) ?? -1, firstIndexOf.get(terminal)!));
  }
  const candidates = [...lastTerminalOf.keys()];
  const leaves = candidates
    .filter((c) => !candidates.some((d) => d !== c && ancestorsOf(d).includes(c)))
    .sort((a, b) => lastTerminalOf.get(a)! - lastTerminalOf.get(b)!);

  const branches = leaves.map((leaf): BranchSummary => {
    const chain = chainOf(leaf);
    const others = leaves.filter((other) => other !== leaf).map(chainOf);
    const branchPoint = chain
      .slice(0, -1)
      .reverse()
      .find((uuid) => others.some((other) => other.includes(uuid)));
    const afterBranchPoint = branchPoint === undefined ? chain : chain.slice(chain.indexOf(branchPoint) + 1);
    const promptTexts = (list: string[]) =>
      list
        .filter(isPrompt)
        .map(textOf)
        .filter((t) => t !== undefined);
    const assistantTexts = chain
      .filter((uuid) => first(uuid).type === 'assistant')
      .map(textOf)
      .filter((t) => t !== undefined);
    const contains = chain.filter(isRewind);
    const siblings = uuids.filter(
      (r) =>
        isRewind(r) &&
        chainOf(r)[0] === chain[0] &&
        !chain.includes(r) &&
        !(r !== leaf && chainOf(r).includes(leaf)),
    );
    const firstUserTextAfterBranchPoint = promptTexts(afterBranchPoint)[0];
    const lastUserText = promptTexts(chain).at(-1);
    const lastAssistantText = assistantTexts.at(-1);
    const countOf = (type: string) => chain.filter((uuid) => first(uuid).type === type).length;
    return {
      leafUuid: leaf,
      branchPointUuid: branchPoint ?? null,
      classification:
        contains.length > 0 && siblings.length > 0
          ? 'mixed-rewind'
          : contains.length > 0
            ? 'rewind-descendant'
            : siblings.length > 0
              ? 'rewind-sibling'
              : 'ordinary',
      containsRewindUuids: contains,
      siblingRewindUuids: siblings,
      ...(firstUserTextAfterBranchPoint !== undefined && { firstUserTextAfterBranchPoint }),
      ...(lastUserText !== undefined && { lastUserText }),
      ...(lastAssistantText !== undefined && { lastAssistantText }),
      recordCounts: {
        user: countOf('user'),
        assistant: countOf('assistant'),
        toolResult: countOf('tool_result'),
        system: countOf('system'),
      },
      startedAt: first(chain[0]!).timestamp,
      updatedAt: records[lastTerminalOf.get(leaf)!]!.timestamp,
    };
  });

  return {
    branches,
    diagnostics: [...perUuidDiagnostics(records, uuids, firstOf), ...cycleDiagnostics(uuids, first)],
  };

  function isPrompt(uuid: string): boolean {
    const record = first(uuid);
    return (
      record.type === 'user' &&
      !NOT_PROMPTS.includes(record.subtype ?? '') &&
      record.externalInputKind !== 'notification'
    );
  }

  function textOf(uuid: string): string | undefined {
    const type = first(uuid).type;
    const fragments = records
      .filter((record) => record.uuid === uuid && record.type === type)
      .flatMap((record) => {
        const displayText = record.systemPayload?.displayText;
        if (type === 'user' && typeof displayText === 'string') return [displayText];
        return (record.message?.parts ?? [])
          .filter((part) => typeof part.text === 'string' && (type === 'user' || part.thought !== true))
          .map((part) => part.text!);
      });
    const text = fragments.join(' ').replace(/\s+/g, ' ').trim();
    const characters = Array.from(text);
    if (characters.length === 0) return undefined;
    return characters.length > 200 ? `${characters.slice(0, 200).join('')}...` : text;
  }
}

function perUuidDiagnostics(
  records: readonly ChatRecord[],
  uuids: string[],
  firstOf: Map<string, ChatRecord>,
): Diagnostic[] {
  return uuids.flatMap((uuid): Diagnostic[] => {
    const parents = [
      ...new Set(records.filter((record) => record.uuid === uuid).map((record) => record.parentUuid)),
    ];
    const parent = firstOf.get(uuid)!.parentUuid;
    return [
      ...(parents.length > 1 ? [{ kind: 'conflicting-parent' as const, uuid, parentUuids: parents }] : []),
      ...(parent !== null && !firstOf.has(parent)
        ? [{ kind: 'missing-parent' as const, childUuid: uuid, missingParentUuid: parent }]
        : []),
    ];
  });
}

/** Each cycle once, from its earliest-written member, in child direction. */
function cycleDiagnostics(uuids: string[], first: (uuid: string) => ChatRecord): Diagnostic[] {
  const found = new Map<string, string[]>();
  for (const start of uuids) {
    const path: string[] = [];
    let uuid: string | null = start;
    while (uuid !== null && first(uuid) !== undefined && !path.includes(uuid)) {
      path.push(uuid);
      const parent: string | null = first(uuid).parentUuid;
      uuid = parent !== null && uuids.includes(parent) ? parent : null;
    }
    if (uuid === null) continue;
    const members = path.slice(path.indexOf(uuid));
    const earliest = uuids.find((candidate) => members.includes(candidate))!;
    const ordered = [earliest];
    for (;;) {
      const next = members.find((m) => first(m).parentUuid === ordered.at(-1));
      if (next === undefined || next === earliest) break;
      ordered.push(next);
    }
    found.set(earliest, ordered);
  }
  return uuids
    .filter((uuid) => found.has(uuid))
    .map((uuid) => ({ kind: 'parent-cycle', uuids: found.get(uuid)! }));
}
