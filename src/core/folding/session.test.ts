import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import { generateSession } from '../demo/generate-session.ts';
import { importText } from '../import/run.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { digestEntries, mergeBlockDigests } from './digest.ts';
import { toIterations } from './iterations.ts';
import { createFoldSession, FoldInputError, foldRun, pushIterations } from './run.ts';
import { FoldSessionError } from './session.ts';
import type { FoldRun } from './types.ts';

const counter = getEstimator('chars4');

function load(text: string): { entries: Entry[]; counts: number[] } {
  const entries = importText(text).entries;
  return { entries, counts: Array.from(countEntries(entries, counter).totals) };
}

function comparable(run: FoldRun): string {
  const { cache: _cache, summariesMade: _made, ...rest } = run;
  return JSON.stringify({ ...rest, levels: Array.from(run.levels) });
}

/** Read / edit / run over 40 files, an error every 13th iteration fixed by the next one. */
function synthetic(iterations: number): { entries: Entry[]; counts: number[] } {
  const specs: Spec[] = [];
  for (let i = 0; i < iterations; i++) {
    const path = `src/part-${i % 7}/file-${(i * 31) % 40}.ts`;
    if (i % 9 === 0) specs.push({ user: `Step ${i}: look at ${path}` });
    const tool = ['Read', 'Edit', 'Bash'][i % 3]!;
    const input = tool === 'Bash' ? { command: `npm test -- ${path}` } : tool === 'Edit' ? { file_path: path, old_string: 'a', new_string: 'b' } : { file_path: path };
    specs.push({ assistant: `Working on ${path}.`, calls: [{ id: `c${i}`, name: tool, input }] });
    specs.push({ tool: i % 13 === 0 ? `Error: failed on ${path}` : `ok ${i}`, callId: `c${i}`, name: tool, ...(i % 13 === 0 ? { error: true } : {}) });
  }
  const entries = linkEntries(makeEntries(specs));
  return { entries, counts: entries.map((_, p) => 40 + ((p * 2654435761) >>> 0) % 900) };
}

const generated = load(generateSession({ iterations: 300, seed: 11 }));

describe('FoldSession', () => {
  it('a snapshot part way is the run of that prefix, and does not change what follows', () => {
    const options = { contextWindow: 40_000, bookmarks: [5, 120] };
    const its = toIterations(generated.entries);
    const session = createFoldSession(options, new Map(), counter);
    for (const cut of [40, 150, its.length]) {
      const end = its[cut - 1]!.to + 1;
      pushIterations(session, generated.entries.slice(0, end), generated.counts.slice(0, end));
      expect(session.iterations).toBe(cut);
      const prefix = foldRun(generated.entries.slice(0, end), generated.counts.slice(0, end), options, new Map(), counter);
      expect(comparable(session.snapshot())).toBe(comparable(prefix));
    }
  });

  it('never leaves an iteration folded less than its distance asks (lazy level pass)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 30, max: 400 }), fc.integer({ min: 6_000, max: 120_000 }), fc.integer({ min: 1, max: 8 }), (n, contextWindow, l0) => {
        const { entries, counts } = synthetic(n);
        const session = createFoldSession({ contextWindow, l0Distance: l0, l1Distance: l0 * 2, l2Distance: l0 * 4, l3Distance: l0 * 6 }, new Map(), counter);
        for (const it of toIterations(entries)) {
          session.push(entries.slice(it.from, it.to + 1), counts.slice(it.from, it.to + 1));
          expect(session.underFolded()).toEqual([]);
        }
      }),
      { numRuns: 15, seed: 3 },
    );
  });

  it('one more iteration costs a bounded number of new summaries, however long the run', () => {
    const { entries, counts } = synthetic(2_001);
    const its = toIterations(entries);
    const session = createFoldSession({ contextWindow: 60_000 }, new Map(), counter);
    const last = its[its.length - 1]!;
    pushIterations(session, entries.slice(0, last.from), counts.slice(0, last.from));
    const before = session.summariesMade;
    session.push(entries.slice(last.from), counts.slice(last.from));
    expect(session.summariesMade - before).toBeLessThanOrEqual(12);
  });

  it('recalls a block into the retrieved zone on request', () => {
    const session = createFoldSession({ contextWindow: 40_000, retrievedShare: 0.3 }, new Map(), counter);
    pushIterations(session, generated.entries, generated.counts);
    const folded = session.snapshot().blocks.filter((b) => b.level >= 2).sort((a, b) => a.tokens.original - b.tokens.original)[0]!;
    expect(folded).toBeTruthy();
    expect(session.recallBlock('fold_iter999999_to_1000000')).toBe(false);
    expect(session.recallBlock(folded.id)).toBe(true);
    const run = session.snapshot();
    const recalled = run.retrieved.find((r) => r.blockId === folded.id);
    expect(recalled?.trigger).toBe('recall-explicit');
    expect(run.partitions.find((p) => p.zone === 'retrieved')!.tokens).toBeGreaterThan(0);
    expect(run.events.at(-1)).toMatchObject({ trigger: 'recall-explicit', blockId: folded.id });
  });

  it('refuses an empty iteration, counts that do not match, and entries that do not continue the session', () => {
    const session = createFoldSession({}, new Map(), counter);
    expect(() => session.push([], [])).toThrow(FoldSessionError);
    expect(() => session.push(generated.entries.slice(0, 2), [1])).toThrow(/Token counts cover 1 entries but the iteration has 2/);
    pushIterations(session, generated.entries.slice(0, 20), generated.counts.slice(0, 20));
    const other = synthetic(10);
    expect(() => pushIterations(session, other.entries, other.counts)).toThrow(FoldInputError);
    expect(() => pushIterations(session, other.entries, other.counts)).toThrow(/do not continue/);
  });
});

describe('mergeBlockDigests', () => {
  it('unions files and commands, resolves an error a later part fixed, keeps the first request', () => {
    const specs: Spec[] = [
      { user: 'Fix the build' },
      { assistant: 'Running tests.', calls: [{ id: 'a', name: 'Bash', input: { command: 'npm test' } }] },
      { tool: 'Error: 2 failing', callId: 'a', name: 'Bash', error: true },
      { assistant: 'Editing.', calls: [{ id: 'b', name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' } }] },
      { tool: 'ok', callId: 'b', name: 'Edit' },
      { assistant: 'Again.', calls: [{ id: 'c', name: 'Bash', input: { command: 'npm test' } }] },
      { tool: 'all passed', callId: 'c', name: 'Bash' },
      { assistant: 'Done: the build passes.' },
    ];
    const entries = linkEntries(makeEntries(specs));
    const whole = digestEntries(entries);
    const merged = mergeBlockDigests([digestEntries(entries.slice(0, 3)), digestEntries(entries.slice(3))]);
    expect(merged.title).toBe(whole.title);
    expect(merged.content).toBe(whole.content);
    expect(merged.outcome).toBe(whole.outcome);
    expect(merged.stateChanges).toEqual(whole.stateChanges);
    expect(merged.changedFiles).toBe(1);
    expect(merged.errors).toBe(1);
    expect(merged.content).toBe('Fix the build: edited a.ts, ran `npm test` (1 failure, then passing)');
    expect(merged.entities).toEqual(expect.arrayContaining(['src/a.ts']));
    // Without the fixing part, the error stays open.
    expect(mergeBlockDigests([digestEntries(entries.slice(0, 3)), digestEntries(entries.slice(3, 5))]).outcome).toMatch(/^Unresolved/);
  });
});
