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
