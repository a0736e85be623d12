/** The virtualized transcript: only the rows on screen are rendered, whatever the session's length. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import type { ViewRow } from '../../core/journal/view-rows.ts';
import { EntryCard } from './EntryCard.tsx';

export interface TranscriptListProps {
  entries: readonly Entry[];
  rows: readonly ViewRow[];
  totals: Uint32Array | undefined;
  counterLabel: string;
}

export function TranscriptList({ entries, rows, totals, counterLabel }: TranscriptListProps) {
  const parent = useRef<HTMLDivElement>(null);
  const byIdMap = useMemo(() => new Map(entries.map((entry) => [entry.id, entry])), [entries]);
  const rowOf = useMemo(() => new Map(rows.map((row, i) => [row.index, i])), [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: (i) => (rows[i]?.display === 'line' ? 56 : 160),
    overscan: 6,
  });
  const byId = useCallback((id: string) => byIdMap.get(id), [byIdMap]);
  const onJump = useCallback(
    (id: string) => {
      const entry = byIdMap.get(id);
      const row = entry ? rowOf.get(entry.index) : undefined;
      if (row !== undefined) virtualizer.scrollToIndex(row, { align: 'start' });
    },
    [byIdMap, rowOf, virtualizer],
  );

  return (
    <div ref={parent} className="transcript" data-testid="transcript.list" tabIndex={0} aria-label={`Transcript, ${rows.length} rows`}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          const entry = row ? entries[row.index] : undefined;
          if (!row || !entry) return null;
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="transcript-row" style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}>
              <EntryCard entry={entry} display={row.display} tokens={totals?.[entry.index]} counterLabel={counterLabel} byId={byId} onJump={onJump} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
