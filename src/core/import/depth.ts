/**
 * How deeply a parsed JSON value nests, measured without recursion. An imported line nested more
 * deeply than MAX_NESTING_DEPTH is refused (by number and depth, the rest imported): deeper values
 * cannot be stored, copied between the worker and the page, or written to a backup by the
 * browser's own recursive algorithms, and no transcript format nests anywhere near it.
 */

/**
 * Deepest nesting of objects and arrays accepted in one imported line: the line's object is level 1.
 * 1,000 levels: far above real tool inputs (a few tens), well below where structured cloning and
 * JSON.stringify exhaust the stack (several thousand levels in V8).
 */
export const MAX_NESTING_DEPTH = 1000;

/** Levels of objects and arrays in `value` (0 for a string, number, boolean or null). */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [current, depth] = item;
    if (current === null || typeof current !== 'object') continue;
    if (depth > deepest) deepest = depth;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Whether a JSON line's text can nest deeper than `max`: each level takes at least two characters,
 * so most lines are cleared without walking their value.
 */
export function mayNestDeeperThan(text: string, max = MAX_NESTING_DEPTH): boolean {
  return text.length > 2 * max;
}

/** An entry left out for its depth, for the import's issues. */
export interface DeepEntry {
  line: number;
  depth: number;
}

/**
 * The entries of a JSON document without those nested deeper than MAX_NESTING_DEPTH (a document
 * has no lines to skip, so its too-deep messages are left out instead): the rest are renumbered
 * and an entry whose parent was left out hangs from that parent's parent.
 */
export function withoutDeepEntries<E extends { id: string; index: number; parentId: string | null; line: number }>(entries: E[]): { entries: E[]; refused: DeepEntry[] } {
  const refused: DeepEntry[] = [];
  const parentOf = new Map<string, string | null>();
  const kept: E[] = [];
  for (const entry of entries) {
    const depth = nestingDepth(entry);
    if (depth > MAX_NESTING_DEPTH) {
      refused.push({ line: entry.line, depth });
      parentOf.set(entry.id, entry.parentId);
    } else {
      kept.push(entry);
    }
  }
  if (refused.length === 0) return { entries, refused };
  const parent = (id: string | null): string | null => {
    let at = id;
    while (at !== null && parentOf.has(at)) at = parentOf.get(at)!;
    return at;
  };
  return { entries: kept.map((entry, index) => ({ ...entry, index, parentId: parent(entry.parentId) })), refused };
}
