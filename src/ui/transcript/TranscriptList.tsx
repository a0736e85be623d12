/** The virtualized transcript: only the rows on screen are rendered, whatever the session's length. */
import { useCallback, useMemo, useRef } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import type { ViewRow } from '../../core/journal/view-rows.ts';
import { VirtualList, type VirtualListHandle } from '../common/VirtualList.tsx';
import { EntryCard } from './EntryCard.tsx';

export interface TranscriptListProps {
  entries: readonly Entry[];
  /** The entries by id, when the caller already has them (built here otherwise). */
  byId?: ReadonlyMap<string, Entry>;
  rows: readonly ViewRow[];
  totals: Uint32Array | undefined;
  counterLabel: string;
  pinned?: ReadonlySet<string>;
  onTogglePin?: (entryId: string) => void;
}

export function TranscriptList({ entries, byId: givenById, rows, totals, counterLabel, pinned, onTogglePin }: TranscriptListProps) {
  const list = useRef<VirtualListHandle>(null);
  const byIdMap = useMemo(() => givenById ?? new Map(entries.map((entry) => [entry.id, entry])), [entries, givenById]);
  const byId = useCallback((id: string) => byIdMap.get(id), [byIdMap]);
  // The row of an entry is looked for on a jump only: no map of every row on each render.
  const onJump = useCallback(
    (id: string) => {
      const entry = byIdMap.get(id);
      const row = entry ? rows.findIndex((candidate) => candidate.index === entry.index) : -1;
      if (row >= 0) list.current?.scrollToIndex(row);
    },
    [byIdMap, rows],
  );
  return (
    <VirtualList
      handle={list}
      count={rows.length}
      estimate={(i) => (rows[i]?.display === 'line' ? 56 : 160)}
      label={`Transcript, ${rows.length} rows`}
      testId="transcript.list"
      render={(i) => {
        const row = rows[i];
        const entry = row ? entries[row.index] : undefined;
        if (!row || !entry) return null;
        return (
          <EntryCard
            entry={entry}
            display={row.display}
            tokens={totals?.[entry.index]}
            counterLabel={counterLabel}
            byId={byId}
            onJump={onJump}
            {...(onTogglePin && entry.role === 'user' && entry.kind === 'message' && !entry.flags?.injected ? { pinned: pinned?.has(entry.id) ?? false, onTogglePin: () => onTogglePin(entry.id) } : {})}
          />
        );
      }}
    />
  );
}
