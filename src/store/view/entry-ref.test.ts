// Notes name entries by line and excerpt instead of bare ids, on a real pi plan's note.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../../core/import/run.ts';
import { makeEntries } from '../../core/compaction/testing.ts';
import { entryRef, noteParts, preview } from './entry-ref.ts';

describe('entryRef and noteParts', () => {
  const entries = importText(readFileSync('src/core/summarize/__fixtures__/ide-context.jsonl')).entries;
  const byId = (id: string) => entries.find((entry) => entry.id === id);

  it("names a user entry by its words (the IDE's text left out), a call by its tool", () => {
    expect(entryRef(entries[0]!)).toBe('line 1 "Why is the discount applied before…"');
    expect(entryRef(entries[1]!)).toBe('line 2 "Read call"');
    expect(entryRef({ line: 9, role: 'assistant', blocks: [] })).toBe('line 9');
  });

  it('replaces every id of the note that is an entry, keeps the rest of the words', () => {
    const [first, , , last] = entries;
    const note = `Split turn: ${first!.id}..${last!.id} get a turn-prefix summary; entry unknown-id stays.`;
    expect(noteParts(note, byId)).toEqual([
      { text: 'Split turn: ' },
      { id: first!.id, ref: 'line 1 "Why is the discount applied before…"' },
      { text: '..' },
      { id: last!.id, ref: expect.stringMatching(/^line 4 "The rate is taken of the subtotal/) as unknown as string },
      { text: ' get a turn-prefix summary; entry unknown-id stays.' },
    ]);
    expect(noteParts('no ids here', byId)).toEqual([{ text: 'no ids here' }]);
  });

  it('finds short ids too (a live session numbers its entries a1, a2 …)', () => {
    const live = makeEntries([{ user: 'List the files' }]).map((entry) => ({ ...entry, id: 'a1' }));
    expect(noteParts('Cut at a1 (entry 0)', (id) => live.find((entry) => entry.id === id))).toEqual([
      { text: 'Cut at ' }, { id: 'a1', ref: 'line 1 "List the files"' }, { text: ' (entry 0)' },
    ]);
  });
});

describe('preview', () => {
  it('puts an entry\'s text on one line and cuts it after the characters asked for', () => {
    const [entry] = makeEntries([{ user: 'Fix the parser\n\n  so that   tabs count' }]);
    expect(preview(entry!)).toBe('Fix the parser so that tabs count');
    expect(preview(entry!, 7)).toBe('Fix the…');
    expect(preview({ ...entry!, blocks: [] })).toBe('(no text)');
  });
});
