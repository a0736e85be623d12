/** Loads a conversation's journal entries from IndexedDB (once per import of it). */
import { useEffect, useState } from 'react';
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
      (entries) => live && setState({ status: 'ready', entries, key }),
      (error: unknown) => live && setState({ status: 'error', message: errorMessage(error), key }),
    );
    return () => {
      live = false;
    };
  }, [conversationId, key]);
  return state.key === key ? state : { status: 'loading' };
}
