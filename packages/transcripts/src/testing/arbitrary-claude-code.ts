// fast-check generator of Claude Code sessions written the way Claude Code writes them: one
// record per content block, parallel tool calls chained, each result on its own tool_use (or on
// a progress record below it), progress for the next tool below the previous result, rounds of
// one message.id that go on after their results, results in any order, interruptions, a session
// that ends before every result is back, and genuine forks (re-asked prompts, second replies).
import fc from 'fast-check';
import {
  ccAssistant,
  ccProgress,
  ccToolResult,
  ccUser,
  text,
  thinking,
  toolUse,
} from '../readers/fixtures/claude-code-lines';

type Json = Record<string, unknown>;

const roundArbitrary = fc.record({
  tools: fc.integer({ min: 1, max: 4 }),
  /** Sort keys: the physical order of the results. */
  resultOrder: fc.array(fc.nat(99), { minLength: 4, maxLength: 4 }),
  progress: fc.array(fc.constantFrom('none', 'own', 'previous-result'), { minLength: 4, maxLength: 4 }),
  resultBelowOwnProgress: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
});

const turnArbitrary = fc.record({
  preamble: fc.constantFrom('none', 'text', 'thinking-text'),
  rounds: fc.array(roundArbitrary, { maxLength: 3 }),
  interrupted: fc.boolean(),
  reply: fc.boolean(),
  fork: fc.constantFrom('none', 'none', 'none', 'reask', 'second-reply'),
});

export interface GeneratedSession {
  text: string;
  /** Genuine forks written (each answered). */
  forks: number;
  /**
   * The conversations a person counts: every fork, and the main line unless it stops, with no
   * reply after, where a prompt asked again from there goes on (docs/transcripts.md).
   */
  conversations: number;
}

export const claudeCodeSessionArbitrary: fc.Arbitrary<GeneratedSession> = fc
  .record({
    turns: fc.array(turnArbitrary, { minLength: 1, maxLength: 4 }),
    /** The last turn loses the results of its last calls, as when the session was killed. */
    endsMidStep: fc.boolean(),
    missing: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  })
  .map(({ turns, endsMidStep, missing }) => {
    const lines: Json[] = [];
    let forks = 0;
    /** The last turn that holds visible assistant output, and the last turn asked again. */
    let lastAnswered = -1;
    let lastReasked = -1;
    let last: string | null = null;
    let message = 0;
    turns.forEach((turn, t) => {
      const isFinal = t === turns.length - 1;
      if (turn.preamble !== 'none' || turn.rounds.length > 0 || (turn.reply && !(isFinal && endsMidStep)))
        lastAnswered = t;
      const promptParent = last;
      const prompt = `u${t}`;
      lines.push(ccUser(prompt, promptParent, `prompt ${t}`));
      last = prompt;
      const messageId = `msg_${t}_${message++}`;
      let previousBlock: string = prompt;
      if (turn.preamble === 'thinking-text') {
        lines.push(ccAssistant(`t${t}_think`, previousBlock, messageId, thinking('planning')));
        previousBlock = `t${t}_think`;
      }
      if (turn.preamble !== 'none') {
        lines.push(ccAssistant(`t${t}_text`, previousBlock, messageId, text('working on it')));
        previousBlock = `t${t}_text`;
      }
      last = previousBlock;
      turn.rounds.forEach((round, r) => {
        const calls: string[] = [];
        let parentOfBlock: string = r === 0 ? previousBlock : last!;
        for (let c = 0; c < round.tools; c++) {
          const uuid = `t${t}_r${r}_call${c}`;
          lines.push(
            ccAssistant(uuid, parentOfBlock, messageId, toolUse(`tool_${t}_${r}_${c}`, 'Bash', { c })),
          );
          calls.push(uuid);
          parentOfBlock = uuid;
        }
        last = parentOfBlock;
        const order = calls
          .map((_, c) => c)
          .sort((a, b) => round.resultOrder[a]! - round.resultOrder[b]! || a - b);
        let lastBelowResults: string | undefined;
        for (const c of order) {
          const toolId = `tool_${t}_${r}_${c}`;
          if (isFinal && endsMidStep && missing[c] === true) continue;
          let resultParent = calls[c]!;
          if (round.progress[c] === 'own') {
            const progress = `t${t}_r${r}_own${c}`;
            lines.push(ccProgress(progress, calls[c]!, toolId));
            if (round.resultBelowOwnProgress[c] === true) resultParent = progress;
          } else if (round.progress[c] === 'previous-result' && lastBelowResults !== undefined) {
            const progress = `t${t}_r${r}_next${c}`;
            lines.push(ccProgress(progress, lastBelowResults, toolId));
            lastBelowResults = progress;
          }
          const result = `t${t}_r${r}_result${c}`;
          const output = turn.interrupted
            ? 'The user doesn\u2019t want to proceed with this tool use.'
            : `output ${c}`;
          lines.push(ccToolResult(result, resultParent, toolId, output));
          lastBelowResults = result;
        }
        if (lastBelowResults !== undefined) last = lastBelowResults;
      });
      if (isFinal && endsMidStep) return;
      if (turn.interrupted) {
        lines.push(
          ccUser(`t${t}_interrupt`, last, [
            { type: 'text', text: '[Request interrupted by user for tool use]' },
          ]),
        );
        last = `t${t}_interrupt`;
      }
      const replyParent = last;
      if (turn.reply) {
        lines.push(ccAssistant(`t${t}_reply`, replyParent, `msg_${t}_${message++}`, text(`reply ${t}`)));
        last = `t${t}_reply`;
      }
      if (turn.fork === 'reask') {
        // A prompt asked again is a conversation once it is answered (docs/transcripts.md).
        lines.push(ccUser(`t${t}_reask`, promptParent, `prompt ${t}, asked again`));
        lines.push(
          ccAssistant(`t${t}_reask_reply`, `t${t}_reask`, `msg_${t}_${message++}`, text('answered again')),
        );
        forks++;
        lastReasked = t;
      } else if (turn.fork === 'second-reply' && turn.reply) {
        lines.push(ccAssistant(`t${t}_second`, replyParent, `msg_${t}_${message++}`, text('another reply')));
        forks++;
      }
    });
    const mainCounts = lastAnswered >= lastReasked || forks === 0;
    return {
      text: lines.map((line) => JSON.stringify(line)).join('\n'),
      forks,
      conversations: forks + (mainCounts ? 1 : 0),
    };
  });
