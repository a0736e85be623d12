/** Rebuilds a stored run's context: journal entries by id from the loaded journal, strategy-made entries as stored. */
import type { ContextEntry } from '../../core/compaction/types.ts';
import type { Entry } from '../../core/journal/entry.ts';
import type { CompactionRow } from '../../db/schema.ts';

export function restoreContext(row: CompactionRow, byId: ReadonlyMap<string, Entry>): { context: ContextEntry[]; missing: number } {
  const context: ContextEntry[] = [];
  let missing = 0;
  for (const item of row.context) {
    if (item.origin === 'journal') {
      const entry = byId.get(item.entryId);
      if (entry) context.push({ role: entry.role, entry, origin: 'journal' });
      else missing++;
    } else {
      context.push({ role: item.entry.role, entry: item.entry, origin: item.origin, ...(item.replaces ? { replaces: item.replaces } : {}) });
    }
  }
  return { context, missing };
}
