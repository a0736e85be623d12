// A compare result reaches the chart in one round trip: the compare job's reply carries the
// chart-ready view of what the worker saved, and opening that comparison reads it from the reply,
// not from the worker again. Later openings ask the worker as before.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ComparisonView } from '../worker/compare/compare-view.ts';

const view = { id: 'cmp-1', conversationId: 'conv-1', results: [] } as unknown as ComparisonView;
const worker = {
  compareAndSave: vi.fn(() => Promise.resolve({ id: 'cmp-1', view })),
  openComparison: vi.fn(() => Promise.resolve(view)),
};
vi.mock('../worker/client.ts', () => ({ engine: () => worker, newJobId: (kind: string) => `${kind}-1`, proxy: <T>(f: T) => f }));
vi.mock('./summarizer-request.ts', () => ({ summarizerFields: () => Promise.resolve({ summarizer: 'offline' }) }));

const { runCompare } = await import('./compare-actions.ts');
const { openComparison } = await import('./compare-reads.ts');
const { useAppStore } = await import('./store.ts');

beforeEach(() => {
  vi.clearAllMocks();
});

describe('a compare and its chart', () => {
  it('take one message to the worker: the compare; the chart\'s view comes with its reply', async () => {
    const id = await runCompare({ conversationId: 'conv-1', counter: 'chars4', contextWindow: 50_000, configs: [{ strategy: 'pi', options: {} }] }, { importId: 'imp-1', name: 'pi', labels: ['pi'] });
    expect(id).toBe('cmp-1');
    expect(useAppStore.getState().compareOpen['conv-1']).toBe('cmp-1');
    expect(await openComparison('cmp-1')).toBe(view);
    expect(worker.compareAndSave).toHaveBeenCalledTimes(1);
    expect(worker.openComparison).not.toHaveBeenCalled();
  });

  it('opening it again later asks the worker (the saved row may have changed since)', async () => {
    expect(await openComparison('cmp-1')).toBe(view);
    expect(worker.openComparison).toHaveBeenCalledTimes(1);
  });
});
