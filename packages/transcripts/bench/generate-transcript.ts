// Deterministic synthetic Qwen Code transcripts for the inspector bench: turns of
// user → assistant → tool results → assistant, with forks from earlier records, explicit
// rewinds, neutral metadata tails, duplicated records and the odd missing parent.
import type { ChatRecord } from '../src/index';

/** mulberry32: small, fast, and the same sequence on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'plan',
  'the',
  'refactor',
  'of',
  'branch',
  'inspector',
  'tests',
  'and',
  'bench',
  'please',
  'read',
  'file',
];

export function generateTranscript(recordCount: number, seed: number): ChatRecord[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const hex = (length: number) => {
    let out = '';
    for (let i = 0; i < length; i++) out += '0123456789abcdef'[Math.floor(random() * 16)];
    return out;
  };
  const newUuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const sentence = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(' ');
  const start = Date.UTC(2025, 0, 1);

  const records: ChatRecord[] = [];
  let tip: string | null = null;
  const push = (type: ChatRecord['type'], extra: Partial<ChatRecord> = {}): string => {
    const uuid = newUuid();
    records.push({
      uuid,
      parentUuid: tip,
      sessionId: 'bench-session',
      timestamp: new Date(start + records.length * 1000).toISOString(),
      type,
      ...extra,
    });
    tip = uuid;
    return uuid;
  };

  while (records.length < recordCount) {
    const roll = random();
    if (roll < 0.01 && records.length > 0) {
      tip = pick(records).uuid;
      push('system', { subtype: 'rewind', systemPayload: { targetUuid: tip } });
    } else if (roll < 0.02 && records.length > 0) {
      tip = pick(records).uuid;
    } else if (roll < 0.025 && records.length > 0) {
      records.push({ ...pick(records) });
      continue;
    } else if (roll < 0.027) {
      tip = `missing-${hex(8)}`;
    } else if (roll < 0.04) {
      push('system', {
        subtype: pick(['custom_title', 'session_artifact_event', 'session_artifact_snapshot']),
      });
      continue;
    }
    push('user', { message: { role: 'user', parts: [{ text: sentence(12 + Math.floor(random() * 40)) }] } });
    const toolCalls = Math.floor(random() * 3);
    for (let call = 0; call < toolCalls; call++) {
      push('assistant', {
        message: {
          role: 'model',
          parts: [
            { text: sentence(30), thought: true },
            { functionCall: { name: 'read_file', args: { path: hex(6) } } },
          ],
        },
      });
      push('tool_result', {
        message: {
          role: 'user',
          parts: [{ functionResponse: { name: 'read_file', response: { output: sentence(50) } } }],
        },
      });
    }
    push('assistant', {
      message: { role: 'model', parts: [{ text: sentence(20 + Math.floor(random() * 200)) }] },
    });
  }
  records.length = recordCount;
  return records;
}
