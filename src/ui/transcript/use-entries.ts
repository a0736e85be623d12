/**
 * Loads a conversation's journal entries through the store (once per import of it). The loaded entries
 * are shown in a transition: React renders the transcript, tabs and totals in slices that yield
 * to the browser, so a conversation opening (the first visit's demo, a large import) does not hold
 * the main thread in one long task. A live session's journal grows one entry at a time (each a new
 * import id): only the new entries are read and appended, the ones shown stay the same objects.
 */
import { startTransition, useEffect, useRef, useState } from 'react';
import type { EntryRow } from '../../db/schema.ts';
import { errorMessage } from '../../store/actions.ts';
import { readJournal } from '../../store/journal-reads.ts';

export type EntriesState = { status: 'loading' } | { status: 'ready'; entries: readonly EntryRow[] } | { status: 'error'; message: string };

/** `grows`: the journal only ever gains entries (a live session), so a new import id reads just the new ones. */
export function useEntries(conversationId: string, importId: string, { grows = false }: { grows?: boolean } = {}): EntriesState {
  const [state, setState] = useState<EntriesState & { key: string }>({ status: 'loading', key: '' });
  const key = `${conversationId}|${importId}`;
  // The entries shown, read by the next load of a growing journal (not a dependency of it).
  const held = useRef<{ conversationId: string; entries: readonly EntryRow[] }>(undefined);
  useEffect(() => {
    let live = true;
    const shown = grows && held.current?.conversationId === conversationId ? held.current.entries : undefined;
    readJournal(conversationId, shown).then(
      (entries) => {
        if (!live) return;
        held.current = { conversationId, entries };
        startTransition(() => setState((current) => (current.status === 'ready' && current.entries === entries ? { ...current, key } : { status: 'ready', entries, key })));
      },
      (error: unknown) => live && setState({ status: 'error', message: errorMessage(error), key }),
    );
    return () => {
      live = false;
    };
  }, [conversationId, key, grows]);
  if (state.key === key) return state;
  // A live session's journal grows entry by entry: the entries shown stay until the longer ones are read.
  return state.status === 'ready' && state.key.startsWith(`${conversationId}|`) ? state : { status: 'loading' };
}
