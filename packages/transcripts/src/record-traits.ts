// What the inspector needs to know about a uuid, read once from its defining (first) record so
// that later passes touch one compact byte per node instead of the record objects.
import { isNeutralRecord, isRewindRecord } from './neutral';
import { isUserPrompt } from './text';
import type { ChatRecord } from './types';

export const Trait = {
  user: 1,
  assistant: 2,
  toolResult: 4,
  system: 8,
  neutral: 16,
  rewind: 32,
  prompt: 64,
} as const;

const TYPE_TRAITS: Readonly<Record<string, number>> = {
  user: Trait.user,
  assistant: Trait.assistant,
  tool_result: Trait.toolResult,
  system: Trait.system,
};

export function traitsOf(record: ChatRecord): number {
  let traits = TYPE_TRAITS[record.type] ?? 0;
  if (isNeutralRecord(record)) traits |= Trait.neutral;
  if (isRewindRecord(record)) traits |= Trait.rewind;
  if (isUserPrompt(record)) traits |= Trait.prompt;
  return traits;
}

export function hasTrait(traits: Uint8Array, node: number, trait: number): boolean {
  return (traits[node]! & trait) !== 0;
}
