import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeDocumentText } from './merge-document';

const word = fc.stringMatching(/^[a-zA-Z]{1,8}$/);
const words = fc.array(word, { minLength: 1, maxLength: 12 }).map((ws) => ws.join(' '));

describe('mergeDocumentText', () => {
  it('keeps both sides when they edit different paragraphs (any texts)', () => {
    fc.assert(
      fc.property(words, words, words, words, words, (a, b, c, a2, c2) => {
        fc.pre(a !== a2 && c !== c2);
        const base = `${a}\n\n${b}\n\n${c}`;
        const mine = `${a2}\n\n${b}\n\n${c}`;
        const theirs = `${a}\n\n${b}\n\n${c2}`;
        expect(mergeDocumentText(base, mine, theirs)).toEqual({ isClean: true, text: `${a2}\n\n${b}\n\n${c2}` });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a person’s edit and the agent’s appended paragraph (the stale-copy case)', () => {
    fc.assert(
      fc.property(words, words, words, words, (a, b, edit, appended) => {
        fc.pre(a !== edit);
        const base = `${a}\n\n${b}`;
        const merged = mergeDocumentText(base, `${edit}\n\n${b}`, `${base}\n\n${appended}`);
        expect(merged).toEqual({ isClean: true, text: `${edit}\n\n${b}\n\n${appended}` });
      }),
      { numRuns: 300 },
    );
  });

  it('is the other side whenever one side did not change, and either when both made the same text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (base, other) => {
        expect(mergeDocumentText(base, base, other)).toEqual({ isClean: true, text: other });
        expect(mergeDocumentText(base, other, base)).toEqual({ isClean: true, text: other });
        expect(mergeDocumentText(base, other, other)).toEqual({ isClean: true, text: other });
      }),
    );
  });

  it('never loses a side: a clean merge holds every word either side inserted', () => {
    fc.assert(
      fc.property(words, fc.nat(20), word, fc.nat(20), word, (base, i, w1, j, w2) => {
        const parts = base.split(' ');
        const mine = [...parts.slice(0, i), `MINE${w1}`, ...parts.slice(i)].join(' ');
        const theirs = [...parts.slice(0, j), `THEIRS${w2}`, ...parts.slice(j)].join(' ');
        const merged = mergeDocumentText(base, mine, theirs);
        if (merged.isClean) {
          expect(merged.text).toContain(`MINE${w1}`);
          expect(merged.text).toContain(`THEIRS${w2}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses edits of the same words', () => {
    expect(mergeDocumentText('The cat sat on the mat.', 'The dog sat on the mat.', 'The bird sat on the mat.')).toEqual({
      isClean: false,
      reason: 'overlap',
    });
  });

  it('merges two edits of one long paragraph in different sentences', () => {
    const base = 'First sentence is here. Second sentence is here. Third sentence is here.';
    const mine = 'First sentence is edited. Second sentence is here. Third sentence is here.';
    const theirs = 'First sentence is here. Second sentence is here. Third sentence was changed.';
    expect(mergeDocumentText(base, mine, theirs)).toEqual({
      isClean: true,
      text: 'First sentence is edited. Second sentence is here. Third sentence was changed.',
    });
  });
});

describe('mergeDocumentText beside an edit', () => {
  it('keeps a rewrite of the last sentence and a paragraph appended after it', () => {
    expect(mergeDocumentText('First line.', 'First line, typed by the person.', 'First line.\n\nAppended by the agent.')).toEqual({
      isClean: true,
      text: 'First line, typed by the person.\n\nAppended by the agent.',
    });
  });

  it('keeps a paragraph inserted before a rewritten one', () => {
    expect(mergeDocumentText('Body text here.', 'Body text rewritten.', 'Intro.\n\nBody text here.')).toEqual({
      isClean: true,
      text: 'Intro.\n\nBody text rewritten.',
    });
  });
});

describe('mergeDocumentText beside a deletion', () => {
  it('drops a paragraph one side removed while the other reworded the sentence before it', () => {
    const base = '# Review\n\nFirst aim.\n\nAppended by the agent.';
    expect(mergeDocumentText(base, '# Review\n\nFirst aim, sharpened by hand.\n\nAppended by the agent.', '# Review\n\nFirst aim.')).toEqual({
      isClean: true,
      text: '# Review\n\nFirst aim, sharpened by hand.',
    });
    expect(mergeDocumentText(base, '# Review\n\nFirst aim.', '# Review\n\nFirst aim, sharpened by hand.\n\nAppended by the agent.')).toEqual({
      isClean: true,
      text: '# Review\n\nFirst aim, sharpened by hand.',
    });
  });

  it('stays a conflict when the removed part was edited too', () => {
    const base = 'First aim.\n\nAppended by the agent.';
    expect(mergeDocumentText(base, 'First aim, sharpened.\n\nAppended by the agent, then edited.', 'First aim.').isClean).toBe(false);
  });
});

/** About `bytes` of prose: paragraphs (one line each) of ordinary words that repeat a lot, as prose does. */
function prose(bytes: number, seed = 1): string {
  const vocabulary = ['the', 'a', 'of', 'and', 'to', 'in', 'study', 'branch', 'result', 'model', 'reader', 'is', 'was', 'that'];
  const paragraphs: string[] = [];
  let size = 0;
  let x = seed;
  for (let p = 0; size < bytes; p++) {
    const words: string[] = [`P${p}`];
    for (let w = 0; w < 60; w++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      words.push(vocabulary[x % vocabulary.length]!);
    }
    const paragraph = `${words.join(' ')}.`;
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}

describe('mergeDocumentText on long documents (bounded)', () => {
  it('merges two edits of a 1 MB document in different paragraphs, and of one paragraph in different words', () => {
    const base = prose(1_000_000);
    const mine = base.replace('P10 ', 'P10 MINE ').replace('P3000 ', 'P3000 MINE-TOO ');
    const theirs = base.replace('P2000 ', 'P2000 THEIRS ').replace(/(P3000 [^\n]*) \w+\./, '$1 THEIRS.');
    const merged = mergeDocumentText(base, mine, theirs);
    expect(merged.isClean).toBe(true);
    if (!merged.isClean) return;
    for (const word of ['P10 MINE ', 'P3000 MINE-TOO ', 'P2000 THEIRS ']) expect(merged.text).toContain(word);
    expect(merged.text).toMatch(/P3000 MINE-TOO [^\n]* THEIRS\./);
  });

  it('answers too_complex past the line edit cap, instead of diffing on', () => {
    const base = prose(200_000);
    const rewritten = (text: string, tag: string) => text.replace(/^P(\d+) /gm, `P$1 ${tag} `);
    expect(mergeDocumentText(base, rewritten(base, 'MINE'), rewritten(base, 'THEIRS'), { maxLineEdits: 100, maxWordEdits: 100, timeoutMs: 60_000 })).toEqual({
      isClean: false,
      reason: 'too_complex',
    });
  });

  it('answers too_complex past the word edit cap inside one overlapping paragraph', () => {
    const base = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const mine = base.replace(/w(\d+)/g, (_, n: string) => (Number(n) % 2 === 0 ? `m${n}` : `w${n}`));
    const theirs = `${base} and one more`;
    expect(mergeDocumentText(base, mine, theirs, { maxLineEdits: 100, maxWordEdits: 50, timeoutMs: 60_000 })).toEqual({
      isClean: false,
      reason: 'too_complex',
    });
    expect(mergeDocumentText(base, mine, theirs, { maxLineEdits: 100, maxWordEdits: 1_000, timeoutMs: 60_000 })).toEqual({
      isClean: true,
      text: `${mine} and one more`,
    });
  });

  it('answers too_complex when the time budget is spent', () => {
    const base = prose(300_000);
    const mine = base.replace(/^P(\d+) /gm, 'P$1 MINE ');
    const theirs = base.replace(/^P(\d+) /gm, 'P$1 THEIRS ');
    expect(mergeDocumentText(base, mine, theirs, { maxLineEdits: 1_000_000, maxWordEdits: 1_000_000, timeoutMs: 0 })).toEqual({
      isClean: false,
      reason: 'too_complex',
    });
  });
});
