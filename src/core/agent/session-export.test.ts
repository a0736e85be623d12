// A live session's journal — tool calls, a compaction, a branch summary — exported as pi JSONL
// v3 and read back by Foldlab's own pi importer gives the same entries and tree.
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { importText } from '../import/run.ts';
import { exportPiSession } from './pi-export.ts';
import { fakeSession } from './testing.ts';

const prompts = loadPrompts();
const signal = () => new AbortController().signal;

describe('a live session exported as pi JSONL', () => {
  it('is imported back with the same entries, tree, compaction and branch summary', async () => {
    const { session } = fakeSession([
      { toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] },
      { text: `Read it: ${'it is all x. '.repeat(40)}` },
      { error: 'overflow' },
      { text: 'Fits now.' },
      { text: 'Edited answer.' },
    ], { prompts });
    await session.send('Read big.txt', signal());
    await session.send('And now?', signal());
    const second = session.entries.find((e) => e.role === 'user' && JSON.stringify(e.blocks).includes('And now?'))!;
    await session.editAndResend(second.id, 'And now, edited?', signal());
    const journal = session.entries;
    expect(journal.filter((e) => e.marker?.source === 'pi.compaction')).toHaveLength(1);
    expect(journal.filter((e) => e.marker?.source === 'pi.branch_summary')).toHaveLength(1);

    const exported = exportPiSession(journal, { model: 'fake-1' });
    const back = importText(exported.text, { fileName: 'live.jsonl' });
    const entries = back.entries;
    expect(entries.map((e) => [e.id, e.parentId, e.role, e.kind])).toEqual(journal.map((e) => [e.id, e.parentId, e.role, e.kind]));
    const marker = (source: string) => entries.find((e) => e.marker?.source === source)?.marker;
    const original = (source: string) => journal.find((e) => e.marker?.source === source)?.marker;
    expect(marker('pi.compaction')).toMatchObject({ firstKeptEntryId: original('pi.compaction')!.firstKeptEntryId, tokensBefore: original('pi.compaction')!.tokensBefore });
    expect(marker('pi.branch_summary')).toMatchObject({ fromId: original('pi.branch_summary')!.fromId });
  });
});
