/**
 * L11: while a summary is being made the job keeps reporting progress — the phase, the summaries
 * done of all, the text streamed so far and the speed — before the run ends; the page's progress
 * bar shows exactly these fields (phase · done, the stream, tok/s).
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompactionProgress } from '../../core/compaction/run.ts';
import type { Summarizer, SummaryRequest } from '../../core/compaction/summarizer.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { CompactionJobs, type OnText } from './compaction-jobs.ts';
import { Engine } from '../engine/engine.ts';
import type { CompactRequest } from '../engine/protocol.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

type Seen = CompactionProgress & { tokensPerSecond?: number; during: boolean };

/** A model that streams its summary in three pieces; `during` is true while a request is in flight. */
function streamingModel(onText: OnText, state: { during: boolean; requests: SummaryRequest[] }): Summarizer {
  return {
    id: 'stream',
    label: 'Streaming model',
    async summarize(request) {
      state.requests.push(request);
      state.during = true;
      let text = '';
      for (const [k, piece] of ['## Goal\nRefactor the renderer.', '\n## Progress\nTests pass.', '\n## Next\nShip it.'].entries()) {
        await Promise.resolve();
        text += piece;
        onText(text, 10 * (k + 1));
      }
      state.during = false;
      return { text, model: 'stream-1', usage: { input: request.prompt.length, output: text.length } };
    },
  };
}

describe('progress while a summary is made (L11)', () => {
  it('reports the summarizing phase, the streamed text and the speed before the summary is done, then done', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const { conversation } = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
    const counts = async (id: string, counter: CompactRequest['counter']) => (await engine.countTokens('c', id, counter, () => undefined)).totals;
    const state = { during: false, requests: [] as SummaryRequest[] };
    const jobs = new CompactionJobs(db, counts, { stream: (_request, onText) => streamingModel(onText, state) });
    const seen: Seen[] = [];
    const request: CompactRequest = { jobId: 'j', conversationId: conversation.id, strategy: 'layered', options: { keepTurns: '2' }, counter: 'chars4', contextWindow: 50_000, summarizer: 'stream', now: 1_800_000_000_000 };
    const row = await jobs.compact(request, new AbortController().signal, (progress) => seen.push({ ...progress, during: state.during }));
    expect(state.requests.length).toBeGreaterThan(0);
    expect(Object.values(row.summaries).join('\n')).toContain('## Next\nShip it.');
    const phases = seen.map((p) => p.phase);
    // In order: planning, summarizing (announced, then streamed), assembling, done.
    expect(phases[0]).toBe('planning');
    expect(phases.indexOf('summarizing')).toBeGreaterThan(0);
    expect(phases.lastIndexOf('summarizing')).toBeLessThan(phases.indexOf('done'));
    const streamed = seen.filter((p) => p.during);
    expect(streamed.length).toBe(3 * state.requests.length);
    for (const p of streamed) {
      expect(p.phase).toBe('summarizing');
      expect(p.done).toBeLessThan(p.total);
      expect(p.total).toBe(state.requests.length);
      expect(p.partial).toMatch(/^## Goal\nRefactor the renderer\./);
      expect(p.tokensPerSecond).toBeGreaterThan(0);
    }
    expect(streamed.slice(0, 3).map((p) => p.partial!.length)).toEqual([...streamed.slice(0, 3).map((p) => p.partial!.length)].sort((a, b) => a - b));
    const total = state.requests.length;
    expect(seen.some((p) => p.phase === 'summarizing' && p.done === total && p.total === total && !p.during)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ phase: 'done', done: 1, total: 1 });
  });
});
