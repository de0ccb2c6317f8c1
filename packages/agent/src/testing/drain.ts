import type { AgentEvent, TurnResult } from '../turn-collector';

/** Runs a turn to its end, collecting its events; `onEvent` may abort along the way. */
export async function drain(
  run: AsyncGenerator<AgentEvent, TurnResult>,
  onEvent?: (event: AgentEvent, index: number) => void,
): Promise<{ events: AgentEvent[]; result: TurnResult }> {
  const events: AgentEvent[] = [];
  for (;;) {
    const step = await run.next();
    if (step.done) return { events, result: step.value };
    events.push(step.value);
    onEvent?.(step.value, events.length - 1);
  }
}

export function tokensOf(events: AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'token' ? [e.text] : []));
}
