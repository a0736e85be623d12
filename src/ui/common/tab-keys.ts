/**
 * The WAI-ARIA tabs pattern's keys: Left / Right move to the previous / next tab (wrapping), Home
 * and End to the first / last. With automatic activation the tab that takes focus is also shown.
 */

/** The index of the tab `key` moves to from `index` among `count` tabs, or undefined for any other key. */
export function tabKeyTarget(key: string, index: number, count: number): number | undefined {
  if (count <= 0) return undefined;
  switch (key) {
    case 'ArrowRight': return (index + 1) % count;
    case 'ArrowLeft': return (index - 1 + count) % count;
    case 'Home': return 0;
    case 'End': return count - 1;
    default: return undefined;
  }
}
