/**
 * Bookmarked iterations of one conversation, kept in the library (they used to be one option
 * string shared by every conversation). Iterations still listed in the `bookmarks` option count too,
 * so nothing bookmarked before is lost; un-bookmarking removes an iteration from both.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useMemo } from 'react';
import { toggleFoldBookmark } from '../../store/library-actions.ts';
import { foldBookmarks } from '../../store/library-reads.ts';
import { useAppStore } from '../../store/store.ts';

export interface Bookmarks {
  /** False until the stored bookmarks are read (fold only after, or it folds twice). */
  ready: boolean;
  /** Bookmarked iterations (0-based), as the `bookmarks` option lists them. */
  list: string[];
  /** The folding options with every bookmark in `bookmarks`. */
  options: Record<string, string>;
  toggle: (iteration: number) => void;
}

export function useBookmarks(conversationId: string, values: Record<string, string>): Bookmarks {
  const stored = useLiveQuery(() => foldBookmarks(conversationId), [conversationId]);
  const setOption = useAppStore((s) => s.setOption);
  const fromOption = useMemo(() => (values.bookmarks ?? '').split(',').map((s) => s.trim()).filter(Boolean), [values.bookmarks]);
  const list = useMemo(
    () => [...new Set([...fromOption, ...(stored ?? []).map(String)])].sort((a, b) => Number(a) - Number(b)),
    [fromOption, stored],
  );
  const options = useMemo(() => {
    const { bookmarks: _old, ...rest } = values;
    return list.length ? { ...rest, bookmarks: list.join(',') } : rest;
  }, [values, list]);
  const toggle = useCallback((iteration: number) => {
    const key = String(iteration);
    if (fromOption.includes(key)) {
      const next = fromOption.filter((b) => b !== key);
      setOption('folding', 'bookmarks', next.length ? next.join(',') : undefined);
      if (stored?.includes(iteration)) void toggleFoldBookmark(conversationId, iteration);
      return;
    }
    void toggleFoldBookmark(conversationId, iteration);
  }, [conversationId, fromOption, setOption, stored]);
  return { ready: stored !== undefined, list, options, toggle };
}
