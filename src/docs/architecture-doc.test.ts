/**
 * docs/architecture.md names files along two paths (a Compare click to the chart point, a file
 * drop to the count on screen) and the folders of each floor: every path it names must exist, so
 * a move or a rename that leaves the doc behind fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOC = readFileSync(resolve(ROOT, 'docs/architecture.md'), 'utf8');

/** Every `src/...` path the doc writes in backticks (a function call after it is not part of it). */
function namedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const match of text.matchAll(/`(src\/[\w./-]+)`/g)) paths.add(match[1]!);
  // Folder tables name subfolders relative to their floor: `src/worker/` then `engine/`.
  for (const row of text.split('\n').filter((line) => line.startsWith('| `src/'))) {
    const floor = /^\| `(src\/[\w/-]+\/)`/.exec(row)?.[1];
    if (!floor) continue;
    for (const match of row.matchAll(/`([\w-]+\/)`/g)) paths.add(floor + match[1]!);
    for (const match of row.matchAll(/`([\w-]+\.tsx?)`/g)) paths.add(floor + match[1]!);
  }
  return [...paths];
}

describe('docs/architecture.md', () => {
  it('names only files and folders that exist', () => {
    const paths = namedPaths(DOC);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((path) => !existsSync(resolve(ROOT, path)))).toEqual([]);
  });

  it('draws the Compare path through at most 12 numbered steps', () => {
    const section = DOC.split('## A Compare click to the chart point')[1]!.split('\n## ')[0]!;
    const steps = section.split('\n').filter((line) => /^\d+\. /.test(line));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThanOrEqual(12);
  });
});
