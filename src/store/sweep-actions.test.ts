// The Sweep tab's run action: what it refuses before anything is replayed, and the message it leaves.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_WEIGHTS } from '../core/sweep/score.ts';
import type { ConversationRow } from '../db/schema.ts';
import { runSweep, type SweepStart } from './sweep-actions.ts';
import { useAppStore } from './store.ts';

const session = { id: 'c1', importId: 'i1', title: 'a session' } as ConversationRow;
const start: SweepStart = { strategy: 'pi', vary: ['keepRecentTokens=4000..12000:2'], sessions: [session], counter: 'chars4', contextWindow: 50_000, weights: { ...DEFAULT_RETENTION_WEIGHTS } };

afterEach(() => useAppStore.setState({ sweepRun: undefined, sweepMessage: undefined, summarizerKind: 'offline', localModelId: undefined }));

describe('running a sweep from the page', () => {
  it('refuses ranges the strategy does not take, with the core\'s reason, and saves nothing', async () => {
    expect(await runSweep({ ...start, vary: ['keepRecentTokens=9000..1000:2'] })).toBeUndefined();
    expect(useAppStore.getState().sweepMessage).toEqual({ kind: 'error', text: 'The sweep could not run: --vary keepRecentTokens=9000..1000:2: the range must go up: 9000 is above 1000.' });
    expect(useAppStore.getState().sweepRun).toBeUndefined();
    expect(useAppStore.getState().activities).toEqual({});
  });

  it('refuses a local model, which runs in one worker, and names the summarizers that can sweep', async () => {
    useAppStore.setState({ summarizerKind: 'local', localModelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' });
    expect(await runSweep(start)).toBeUndefined();
    expect(useAppStore.getState().sweepMessage?.text).toMatch(/the local model runs in one: choose the offline summarizer or a remote model in Settings > Models\.$/);
  });

  it('refuses a second sweep while one runs', async () => {
    useAppStore.setState({ sweepRun: { jobId: 'sweep-1', strategy: 'pi', startedAt: 0 } });
    expect(await runSweep(start)).toBeUndefined();
    expect(useAppStore.getState().sweepMessage).toEqual({ kind: 'error', text: 'A sweep is already running: wait for it or cancel it first.' });
    expect(useAppStore.getState().sweepRun?.jobId).toBe('sweep-1');
  });
});
