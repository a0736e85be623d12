// P7 in the live loop: editing an earlier message or switching to another leaf summarizes the
// branch left behind (leaf back to the common ancestor) into a pi branch_summary placed where the
// new branch continues; a resumed journal carries on where it stopped.
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { abandonedPart, branchSummaryPreamble } from './branch-summary.ts';
import { createAgentSession } from './session.ts';
import { fakeModel, fakeSession, memoryFolder } from './testing.ts';
import { echoSummarizer } from '../compaction/testing.ts';
import { getEstimator } from '../tokens/counters.ts';

const prompts = loadPrompts();
const signal = () => new AbortController().signal;

describe('branches (P7)', () => {
  it('edit and resend: the abandoned branch is summarized where the new one continues', async () => {
    const { session, model, summarizer, of } = fakeSession([
      { text: 'Answer one.' },
      { text: 'Answer two, about src/old.ts.' },
      { text: 'Answer two, edited.' },
      { text: 'Back on the old branch.' },
    ], { prompts });
    await session.send('first', signal());
    await session.send('second', signal());
    const [u1, a1, u2, a2] = session.entries;
    const result = await session.editAndResend(u2!.id, 'second, edited', signal());
    expect(result.status).toBe('done');

    const summary = session.entries[4]!;
    expect(summary).toMatchObject({ role: 'summary', kind: 'compaction', parentId: a1!.id, sourceType: 'branch_summary' });
    expect(summary.marker).toMatchObject({ source: 'pi.branch_summary', fromId: a2!.id });
    expect((summary.blocks[0] as { text: string }).text.startsWith(branchSummaryPreamble(prompts))).toBe(true);
    const edited = session.entries[5]!;
    expect(edited).toMatchObject({ role: 'user', parentId: summary.id });
    expect(of('branch-summary')).toEqual([{ type: 'branch-summary', fromLeafId: a2!.id, toEntryId: a1!.id, entry: summary }]);
    expect(summarizer.requests[0]!.promptId).toBe('branch-summary');
    expect(summarizer.requests[0]!.entries.map((e) => e.id)).toEqual([u2!.id, a2!.id]);
    expect(summarizer.requests[0]!.prompt).toContain('<conversation>\n[user]: second');

    // The new branch's request: the summary as a user message, the abandoned messages gone.
    const sent = model.requests[2]!.context;
    expect(sent.map((item) => item.entry.id)).toEqual([u1!.id, a1!.id, summary.id, edited.id]);
    expect(sent[2]!.role).toBe('user');
    expect(JSON.stringify(sent)).not.toContain('Answer two, about');

    // Switching back summarizes the edited branch into a summary under the old leaf.
    const editedLeaf = session.leafId!;
    await session.switchBranch(a2!.id, signal());
    const back = session.entries.at(-1)!;
    expect(back.parentId).toBe(a2!.id);
    expect(back.marker).toMatchObject({ source: 'pi.branch_summary', fromId: editedLeaf });
    expect(session.leafId).toBe(back.id);
    expect(summarizer.requests[1]!.entries.map((e) => e.id)).toEqual([summary.id, edited.id, editedLeaf]);
    await session.send('continue', signal());
    expect(model.requests[3]!.context.map((item) => item.entry.id)).toEqual([u1!.id, a1!.id, u2!.id, a2!.id, back.id, session.entries.at(-2)!.id]);
  });

  it('finds the part a move abandons: from the old leaf back to the common ancestor', () => {
    const byId = new Map([
      ['r', { id: 'r', parentId: null }], ['a', { id: 'a', parentId: 'r' }], ['b', { id: 'b', parentId: 'a' }], ['c', { id: 'c', parentId: 'r' }],
    ].map(([id, e]) => [id, { ...(e as object), index: 0, role: 'user', kind: 'message', blocks: [], sourceType: 't', line: 1 }])) as Map<string, never>;
    const get = (id: string) => byId.get(id);
    expect(abandonedPart('b', 'c', get)).toEqual({ ancestorId: 'r', entries: [byId.get('a'), byId.get('b')] });
    expect(abandonedPart('b', 'a', get).entries).toEqual([byId.get('b')]);
    expect(abandonedPart('a', 'b', get).entries).toEqual([]);
  });

  it('moving without anything to leave behind writes no summary', async () => {
    const { session, of } = fakeSession([{ text: 'one' }], { prompts });
    await session.send('hello', signal());
    const [u1, a1] = session.entries;
    await session.switchBranch(a1!.id, signal());
    await session.switchBranch(u1!.id, signal());
    expect(of('branch-summary')).toHaveLength(1);
    expect(session.entries.at(-1)!.marker?.fromId).toBe(a1!.id);
  });
});

describe('a resumed session', () => {
  it('carries on from the journal it is given, with fresh ids and the compaction it recorded', async () => {
    const first = fakeSession([{ toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] }, { text: `Done: ${'long answer. '.repeat(40)}` }, { error: 'overflow' }, { text: 'fits' }], { prompts });
    await first.session.send('read', signal());
    await first.session.send('again', signal());
    const journal = first.session.entries;
    expect(journal.some((e) => e.marker?.source === 'pi.compaction')).toBe(true);

    const model = fakeModel([{ text: 'Resumed.' }]);
    const resumed = createAgentSession({
      model, tools: [], folder: memoryFolder({}), strategy: { strategy: 'pi', options: { reserveTokens: 256, keepRecentTokens: 100 } },
      contextWindow: 4000, counter: getEstimator('chars4'), summarizer: echoSummarizer(), prompts, journal,
    });
    expect(resumed.leafId).toBe(journal.at(-1)!.id);
    await resumed.send('still there?', signal());
    const ids = resumed.entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(resumed.entries.at(-2)!.parentId).toBe(journal.at(-1)!.id);
    // The compaction is read back from its record: its summary first, the big read not sent again.
    const sent = model.requests[0]!.context;
    expect(sent[0]!.origin).toBe('summary');
    expect(JSON.stringify(sent)).not.toContain('xxxxxxxx');
  });
});
