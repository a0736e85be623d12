/**
 * The Compare tab's reads of saved comparisons, all answered by the engine worker (which decodes
 * the stored rows): the conversation's list, kept live by watching the table's keys only; the
 * opened comparison; and any detail asked on demand (a compaction, a call's context).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { startTransition, useEffect, useState } from 'react';
import { comparisonKeys, listComparisons, openComparison } from '../../store/compare-reads.ts';
import { afterNextFrame } from '../common/after-next-frame.ts';
import type { ComparisonSummary, ComparisonView } from '../../worker/compare/compare-view.ts';

/** Saved comparisons of a conversation, newest first, without results; undefined while loading. */
export function useSavedComparisons(conversationId: string): ComparisonSummary[] | undefined {
  return useLiveQuery(async () => {
    // Only the keys are read here (observed, so a save or delete runs this again): the rows are decoded in the worker.
    await comparisonKeys(conversationId);
    return Promise.resolve(listComparisons(conversationId));
  }, [conversationId]);
}

/**
 * A value the worker computes for `key` (undefined key: none). While the next key's value is on its
 * way the previous one stays, so the view does not flicker; `loading` says so.
 */
export function useWorkerValue<T>(key: string | undefined, read: () => Promise<T>): { value: T | undefined; loading: boolean; error?: string } {
  const [state, setState] = useState<{ key: string | undefined; value: T | undefined; error?: string }>({ key: undefined, value: undefined });
  useEffect(() => {
    if (key === undefined) return;
    let live = true;
    read().then(
      (value) => live && setState({ key, value }),
      (error: unknown) => live && setState({ key, value: undefined, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
    // `read` is a new closure each render: `key` names what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (key === undefined) return { value: undefined, loading: false };
  return { value: state.value, loading: state.key !== key, ...(state.key === key && state.error ? { error: state.error } : {}) };
}

/** The saved comparison `id` with its compactions as markers. */
export function useComparisonView(id: string | undefined): { view: ComparisonView | undefined; loading: boolean; error?: string } {
  const { value, loading, error } = useWorkerValue(id, () => openComparison(id ?? ''));
  // A view of another comparison is not shown under this one's name.
  const view = value?.id === id ? value : undefined;
  return { view, loading, ...(error ? { error } : {}) };
}

/**
 * Counts from 1 up to `count`, one step after each commit has been drawn, so a large view mounts in
 * parts (chart and totals first, the long lists after), each part a short task of its own: the
 * browser lays out and paints a part before the next one mounts, so a list that measures its rows
 * lays out only its own rows, not every part mounted before it.
 */
export function useStages(count: number): number {
  const [stage, setStage] = useState(1);
  useEffect(() => {
    if (stage >= count) return;
    return afterNextFrame(() => startTransition(() => setStage((s) => s + 1)));
  }, [stage, count]);
  return stage;
}
