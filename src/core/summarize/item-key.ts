/**
 * The key under which two summary items count as the same (summaries dedupe their lists by it),
 * remembered for the items seen lately.
 */
import { oneLine } from './clip.ts';

/**
 * Keys of items seen lately: a rolling summary is parsed back and merged at every update, keying
 * the same items again each time. Bounded (cleared when full); long items are not kept.
 */
const itemKeys = new Map<string, string>();
const MAX_KEYED_ITEMS = 20_000;
const MAX_KEYED_LENGTH = 1_000;

/** Key under which two lines count as the same item: case, spacing, bullets and end punctuation ignored. */
export function itemKey(text: string): string {
  const known = itemKeys.get(text);
  if (known !== undefined) return known;
  const key = oneLine(text).toLowerCase().replace(/[\s.。!！?？;；:：,，]+$/u, '');
  if (text.length <= MAX_KEYED_LENGTH) {
    if (itemKeys.size >= MAX_KEYED_ITEMS) itemKeys.clear();
    itemKeys.set(text, key);
  }
  return key;
}
