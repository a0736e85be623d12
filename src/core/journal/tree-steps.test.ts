import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../demo/generate-session.ts';
import { importText } from '../import/run.ts';
import type { Entry } from './entry.ts';
import { listBranchesInSteps, type Branch } from './tree.ts';

const sample = (path: string) => readFileSync(new URL(`../../../public/samples/${path}`, import.meta.url), 'utf8');

/** Runs the steps to the end; returns the branches and how many times they paused. */
function runSteps(entries: readonly Entry[], slice: number): { branches: Branch[]; pauses: number } {
  const steps = listBranchesInSteps(entries, slice);
  let pauses = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { branches: step.value, pauses };
    pauses++;
  }
}

/** The branch list worked out without pauses, independently of the steps: leaves, active path, forks. */
function expectedBranches(entries: readonly Entry[]): Branch[] {
  const main = entries.filter((entry) => !entry.flags?.sidechain);
  const children = new Map<string, number>();
  for (const entry of main) if (entry.parentId !== null) children.set(entry.parentId, (children.get(entry.parentId) ?? 0) + 1);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const up = (id: string) => {
    const path: Entry[] = [];
    for (let e = byId.get(id); e && !path.includes(e); e = e.parentId === null ? undefined : byId.get(e.parentId)) path.push(e);
    return path;
  };
  const active = main.at(-1);
  const onActive = new Set(active ? up(active.id) : []);
  const text = (e: Entry) => {
    const block = e.blocks.find((b) => b.type === 'text');
    return block?.type === 'text' ? block.text.slice(0, 60) : undefined;
  };
  const userText = (path: Entry[]) => path.filter((e) => e.role === 'user' && !e.flags?.injected).map(text).find((t) => t !== undefined);
  const leaves = main.filter((e) => !children.get(e.id) && (e === active || !(e.role === 'tool' && (e.parentId === null ? 0 : (children.get(e.parentId) ?? 0)) > 1)));
  const branches = leaves.map((leaf): Branch => {
    const path = up(leaf.id);
    const forkAt = leaf === active ? -1 : path.findIndex((e) => onActive.has(e));
    const own = forkAt < 0 ? path : path.slice(0, forkAt);
    const fork = forkAt < 0 ? undefined : path[forkAt];
    const label = userText(own) ?? (fork ? userText(up(fork.id)) : undefined);
    return { leafId: leaf.id, length: path.length, forkId: fork?.id, label: label ?? '(no user message)', active: leaf === active };
  });
  return branches.sort((a, b) => Number(b.active) - Number(a.active));
}

const JOURNALS: Array<[string, readonly Entry[]]> = [
  ['pi v3 tree', importText(sample('pi/v3-small.jsonl')).entries],
  ['Claude Code rewind + compaction', importText(sample('claude-code/dag_compact_after_rewind.jsonl')).entries],
  ['Codex rollout', importText(sample('codex/schema-coverage.jsonl')).entries],
  ['generated session', importText(generateSession({ iterations: 400, seed: 7 }), { format: 'claude-code' }).entries],
];

describe('listBranchesInSteps', () => {
  for (const [name, entries] of JOURNALS) {
    it(`gives the same branches at every slice size (${name})`, () => {
      const expected = expectedBranches(entries);
      for (const slice of [1, 2, 7, 100, Number.POSITIVE_INFINITY]) expect(runSteps(entries, slice).branches).toEqual(expected);
    });
  }

  it('pauses after every slice of entries it visits, so a long journal is spread over many steps', () => {
    const entries = JOURNALS[3]![1];
    expect(entries.length).toBeGreaterThan(500);
    // At least the two passes over the journal and the active path's walk.
    expect(runSteps(entries, 100).pauses).toBeGreaterThanOrEqual(Math.floor((2 * entries.length) / 100));
    expect(runSteps(entries, Number.POSITIVE_INFINITY).pauses).toBe(0);
  });
});
