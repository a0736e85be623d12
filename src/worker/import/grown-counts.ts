/**
 * Counting a live session's journal again after it grew: its entries are never rewritten, so the
 * counts stored for a shorter version of it (an older import id) still hold for its first entries,
 * and only the entries after them are counted.
 */
import type { EntriesTokens } from '../../core/tokens/entry-tokens.ts';
import type { CounterId } from '../../core/tokens/counters.ts';
import type { ConversationRow, EntryRow, FoldlabDatabase, TokenCountRow } from '../../db/schema.ts';
import { storedCounts } from '../../db/token-counts.ts';

/** The stored counts of a shorter version of a live session's journal, and its entries after them; undefined when there are none to extend. */
export async function grownJournal(db: FoldlabDatabase, conversation: ConversationRow, counter: CounterId): Promise<{ earlier: TokenCountRow; entries: EntryRow[] } | undefined> {
  if (conversation.origin !== 'live') return undefined;
  const earlier = await storedCounts(db, conversation.id, counter);
  const from = earlier?.totals.length ?? 0;
  if (!earlier || from === 0 || from > conversation.entryCount) return undefined;
  const entries = await db.entries.where('[conversationId+index]').between([conversation.id, from], [conversation.id, Infinity]).toArray();
  // Dense indices: the first new entry is the one after the counted ones.
  if (entries.length > 0 && entries[0]!.index !== from) return undefined;
  return { earlier, entries };
}

/** The earlier counts followed by those of the new entries. */
export function extendCounts(earlier: EntriesTokens, added: EntriesTokens): EntriesTokens & { total: number } {
  const totals = new Uint32Array(earlier.totals.length + added.totals.length);
  totals.set(earlier.totals, 0);
  totals.set(added.totals, earlier.totals.length);
  const sum = <K extends string>(a: Record<K, number>, b: Record<K, number>): Record<K, number> => {
    const out = { ...a };
    for (const key of Object.keys(b) as K[]) out[key] = (out[key] ?? 0) + b[key];
    return out;
  };
  let total = 0;
  for (const value of totals) total += value;
  return { totals, byKind: sum(earlier.byKind, added.byKind), byRole: sum(earlier.byRole, added.byRole), total };
}
