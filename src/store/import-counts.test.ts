// An import's counts reach the page in the reply that ends the import: the store keeps them under
// the key the transcript view asks for, so opening the conversation sends the worker no second request.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenCounts } from '../db/token-counts.ts';
import type { ImportOutcome } from '../worker/engine/protocol.ts';

const counts: TokenCounts = {
  conversationId: 'conv-1', importId: 'imp-1', counter: 'o200k', label: 'o200k', exact: true, totals: Uint32Array.from([3, 4]), total: 7,
  byRole: { system: 0, user: 3, assistant: 4, tool: 0 } as TokenCounts['byRole'], byKind: {} as TokenCounts['byKind'], cached: false,
};
const outcome = {
  conversation: { id: 'conv-1', importId: 'imp-1', issues: [] },
  report: { skippedLines: 0, blankLines: 0 },
  counts,
} as unknown as ImportOutcome;

const worker = { importBlob: vi.fn(() => Promise.resolve(outcome)), countTokens: vi.fn((_job: string, _id: string, counter: TokenCounts['counter']) => Promise.resolve<TokenCounts>({ ...counts, counter })) };
vi.mock('../worker/client.ts', () => ({ engine: () => worker, newJobId: (kind: string) => `${kind}-1`, proxy: <T>(f: T) => f }));

const { importFile, ensureCounts } = await import('./actions.ts');
const { useAppStore } = await import('./store.ts');
const { countsKey } = await import('./counts-slice.ts');

beforeEach(() => {
  vi.clearAllMocks();
});

describe('an import and the counts the page shows', () => {
  it('takes one message to the worker: the import; opening the conversation asks nothing more', async () => {
    await importFile(new File(['{}'], 'session.jsonl'));
    expect(useAppStore.getState().counts[countsKey('conv-1', 'imp-1', 'o200k')]?.total).toBe(7);
    await ensureCounts('conv-1', 'imp-1', 'o200k');
    expect(worker.importBlob).toHaveBeenCalledTimes(1);
    expect(worker.countTokens).not.toHaveBeenCalled();
  });

  it('another counter is still counted on request', async () => {
    await ensureCounts('conv-1', 'imp-1', 'chars');
    expect(worker.countTokens).toHaveBeenCalledTimes(1);
  });

  it('keeps counts under the import they were made on: a re-import counted meanwhile is not shown for the older one', async () => {
    worker.countTokens.mockImplementationOnce(() => Promise.resolve({ ...counts, importId: 'imp-2', counter: 'cl100k' }));
    await ensureCounts('conv-1', 'imp-1', 'cl100k');
    expect(useAppStore.getState().counts[countsKey('conv-1', 'imp-1', 'cl100k')]).toBeUndefined();
    expect(useAppStore.getState().counts[countsKey('conv-1', 'imp-2', 'cl100k')]?.importId).toBe('imp-2');
  });
});
