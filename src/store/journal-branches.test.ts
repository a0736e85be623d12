import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
import { listBranches } from '../core/journal/tree.ts';
import { branchWork, stepUntil } from './journal-branches.ts';
import { branchPath, shownLeaf } from './view/transcript.ts';

const tree = importText(readFileSync('public/samples/claude-code/dag_compact_after_rewind.jsonl', 'utf8')).entries;

/** A clock that moves one unit each time it is read: a step budget counts slices, not milliseconds. */
function ticks() {
  let t = 0;
  return () => ++t;
}

describe('the branch walk in slices', () => {
  it('pauses when the budget is spent and ends with the branches and entries by id the core finds', () => {
    const work = branchWork(tree, 2);
    const now = ticks();
    let calls = 0;
    while (!stepUntil(work, 0, now)) calls++;
    expect(calls).toBeGreaterThan(1);
    expect(work.branches?.branches).toEqual(listBranches(tree));
    expect([...(work.branches?.byId.keys() ?? [])]).toEqual(tree.map((entry) => entry.id));
  });

  it('finishes in one call when the budget is not spent', () => {
    const work = branchWork(tree);
    expect(stepUntil(work, Infinity)).toBe(true);
    expect(work.branches?.branches.length).toBeGreaterThan(1);
  });
});

describe('the branch shown', () => {
  const branches = listBranches(tree);
  const other = branches.find((branch) => !branch.active)!;
  const byId = new Map(tree.map((entry) => [entry.id, entry]));

  it('is the one picked while it ends a branch, else the active one', () => {
    const active = branches.find((branch) => branch.active)!.leafId;
    expect(shownLeaf(tree, branches, other.leafId)).toBe(other.leafId);
    expect(shownLeaf(tree, branches, 'gone')).toBe(active);
    expect(shownLeaf(tree, branches, undefined)).toBe(active);
  });

  it('runs root to leaf on a tree, and is the whole journal with one branch', () => {
    const path = branchPath(tree, branches.length, other.leafId, byId);
    expect(path).toHaveLength(other.length);
    expect(tree[path.at(-1)!]!.id).toBe(other.leafId);
    expect(branchPath(tree, 1, other.leafId, byId)).toEqual(tree.map((entry) => entry.index));
  });
});
