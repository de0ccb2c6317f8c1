// fast-check generator of small, hostile transcripts: forks, rewinds, neutral tails, duplicated
// uuids with conflicting parents and mixed types, missing parents, forward references and
// cycles, synthetic prompts, thoughts, long and whitespace-only texts.
import fc from 'fast-check';
import type { ChatPart, ChatRecord } from '../types';

const SUBTYPES = [
  undefined,
  'rewind',
  'rewind',
  'rewind',
  'custom_title',
  'session_artifact_event',
  'session_artifact_snapshot',
  'chat_compression',
  'notification',
  'cron',
  'mid_turn_user_message',
];
const TEXTS = ['', '   ', 'hello', ' two  words\n', 'x'.repeat(210), `${'y'.repeat(199)}  z`, '😀 emoji'];

const partArbitrary: fc.Arbitrary<ChatPart> = fc.oneof(
  fc.record({ text: fc.constantFrom(...TEXTS) }),
  fc.record({ text: fc.constantFrom(...TEXTS), thought: fc.constant(true) }),
  fc.constant({ functionCall: { name: 'tool', args: { secret: 'argument' } } }),
);

const specArbitrary = fc.record({
  uuidChoice: fc.constantFrom('fresh', 'fresh', 'fresh', 'reuse'),
  uuidPick: fc.nat(),
  parentChoice: fc.constantFrom('earlier', 'earlier', 'earlier', 'earlier', 'null', 'ghost', 'anywhere'),
  parentPick: fc.nat(),
  type: fc.constantFrom('user', 'assistant', 'tool_result', 'system', 'system'),
  subtype: fc.constantFrom(...SUBTYPES),
  notification: fc.boolean(),
  displayText: fc.option(fc.constantFrom(...TEXTS), { nil: undefined }),
  parts: fc.array(partArbitrary, { maxLength: 3 }),
  timestamp: fc.constantFrom('2024-01-01T00:00:00Z', '2023-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
});

export const transcriptArbitrary: fc.Arbitrary<ChatRecord[]> = fc
  .array(specArbitrary, { maxLength: 36, size: 'max' })
  .map((specs) => {
    const written: string[] = [];
    return specs.map((spec, index): ChatRecord => {
      const uuid =
        spec.uuidChoice === 'reuse' && written.length > 0
          ? written[spec.uuidPick % written.length]!
          : `r${index}`;
      const parentUuid =
        spec.parentChoice === 'null' || (spec.parentChoice === 'earlier' && written.length === 0)
          ? null
          : spec.parentChoice === 'ghost'
            ? `ghost${spec.parentPick % 2}`
            : spec.parentChoice === 'earlier'
              ? written[written.length - 1 - (spec.parentPick % Math.min(written.length, 4))]!
              : `r${spec.parentPick % specs.length}`;
      written.push(uuid);
      return {
        uuid,
        parentUuid,
        sessionId: 's',
        timestamp: `${spec.timestamp}#${index}`,
        type: spec.type,
        ...(spec.subtype !== undefined && { subtype: spec.subtype }),
        ...(spec.notification && { externalInputKind: 'notification' }),
        ...(spec.displayText !== undefined && { systemPayload: { displayText: spec.displayText } }),
        message: { role: spec.type === 'assistant' ? 'model' : 'user', parts: spec.parts },
      };
    });
  });
