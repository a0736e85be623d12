/**
 * Budget's context items for journal entries, one per entry and handed back at every compaction:
 * a replay trims at nearly every call, and the same item objects let it see at once what stayed
 * (items are never edited).
 */
import type { ContextEntry } from '../../compaction/types.ts';
import type { Entry } from '../../journal/entry.ts';

const journalItems = new WeakMap<Entry, ContextEntry>();

/** The item of `entry`. */
export function journalItem(entry: Entry): ContextEntry {
  let item = journalItems.get(entry);
  if (!item) {
    item = { role: entry.role, entry, origin: 'journal' };
    journalItems.set(entry, item);
  }
  return item;
}

/**
 * The same items by input index, for the branch trimmed last: reading an array slot (checked
 * against the entry) is cheaper than the WeakMap for the thousands of entries kept at each call.
 * Holds only items `journalItem` made, so identities stay the same.
 */
const itemSlots: Array<ContextEntry | undefined> = [];

/** The item of `entry`, the input's `i`th. */
export function journalItemAt(entry: Entry, i: number): ContextEntry {
  const slot = itemSlots[i];
  if (slot !== undefined && slot.entry === entry) return slot;
  const item = journalItem(entry);
  itemSlots[i] = item;
  return item;
}
