/**
 * Loads a conversation's journal entries from IndexedDB (once per import of it). The loaded entries
 * are shown in a transition: React renders the transcript, tabs and totals in slices that yield
 * to the browser, so a conversation opening (the first visit's demo, a large import) does not hold
 * the main thread in one long task.
 */
import { startTransition, useEffect, useState } from 'react';
import { loadEntriesInSlices } from '../../db/conversations.ts';
import { db } from '../../db/db.ts';
import type { EntryRow } from '../../db/schema.ts';
import { errorMessage } from '../../store/actions.ts';

export type EntriesState = { status: 'loading' } | { status: 'ready'; entries: EntryRow[] } | { status: 'error'; message: string };

export function useEntries(conversationId: string, importId: string): EntriesState {
  const [state, setState] = useState<EntriesState & { key: string }>({ status: 'loading', key: '' });
  const key = `${conversationId}|${importId}`;
  useEffect(() => {
    let live = true;
    loadEntriesInSlices(db, conversationId).then(
      (entries) => {
        if (live) startTransition(() => setState({ status: 'ready', entries, key }));
      },
      (error: unknown) => live && setState({ status: 'error', message: errorMessage(error), key }),
    );
    return () => {
      live = false;
    };
  }, [conversationId, key]);
  if (state.key === key) return state;
  // A live session's journal grows entry by entry: the entries shown stay until the longer ones are read.
  return state.status === 'ready' && state.key.startsWith(`${conversationId}|`) ? state : { status: 'loading' };
}
