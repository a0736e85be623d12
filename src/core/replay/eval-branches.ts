/**
 * Which branches of a file an evaluation replays. `last`: the last branch of each root
 * conversation (what the agent ended on). `all` (the default): every branch, so a `/clear` or a
 * rewind does not hide the work before it. Each branch is replayed from its root, as its agent saw
 * it; a branch without a model call of its own (a `/clear` or a rewind before any reply, whose
 * calls are all on an earlier branch) is listed with the reason and not replayed. A branch that
 * shares its beginning with an earlier one says how many of its calls that earlier replay also
 * covered (`sharedCalls`), so a sum over branches can count them once. `last` replays what it
 * names even when it holds no call, as evaluations did before branches could be chosen.
 */
import type { Entry } from '../journal/entry.ts';
import { branchLeaves, pathTo } from '../journal/tree.ts';
import { findCalls } from './calls.ts';
import { conversationLeaves } from './compare.ts';

export type EvalBranches = 'last' | 'all';

export const EVAL_BRANCHES: readonly EvalBranches[] = ['last', 'all'];

/** Default 'all': every branch of a file is evaluated. */
export const DEFAULT_EVAL_BRANCHES: EvalBranches = 'all';

export interface EvalBranch {
  leafId: string;
  /** Source line of the leaf. */
  line: number;
  /** Which root conversation of the file (1-based), when it holds several. */
  conversation?: number;
  /** Which branch of that conversation (1-based, file order of the leaves), when it has several. */
  branch?: { index: number; of: number };
  /** Model calls on the path from the root to the leaf. */
  calls: number;
  /** Of those, calls an earlier branch of the same conversation also replays. */
  sharedCalls: number;
  /** Why the branch is not replayed (absent: it is). */
  skipped?: string;
}

/** Parses a `--branches` value; a clear error names the accepted values. */
export function parseEvalBranches(value: string): EvalBranches {
  if ((EVAL_BRANCHES as readonly string[]).includes(value)) return value as EvalBranches;
  throw new Error(`--branches must be one of ${EVAL_BRANCHES.join(', ')}; got "${value}"`);
}

export function evalBranches(journal: readonly Entry[], mode: EvalBranches = DEFAULT_EVAL_BRANCHES): EvalBranch[] {
  const byId = new Map(journal.map((entry) => [entry.id, entry]));
  const leaves = mode === 'last' ? conversationLeaves(journal).map((id) => byId.get(id)!) : branchLeaves(journal);
  // Root conversation of each leaf, numbered in the order conversationLeaves gives them.
  const paths = leaves.map((leaf) => pathTo(journal, leaf.id, byId).map((index) => journal[index]!));
  const roots = new Map<string, number>();
  for (const path of paths) if (!roots.has(path[0]!.id)) roots.set(path[0]!.id, roots.size + 1);
  const perRoot = new Map<string, number>();
  for (const path of paths) perRoot.set(path[0]!.id, (perRoot.get(path[0]!.id) ?? 0) + 1);
  const seen = new Map<string, { covered: Set<string>; index: number }>();
  return paths.map((path, i) => {
    const root = path[0]!.id;
    const state = seen.get(root) ?? { covered: new Set<string>(), index: 0 };
    seen.set(root, state);
    state.index++;
    const callIds = findCalls(path).map((k) => path[k]!.id);
    const sharedCalls = callIds.filter((id) => state.covered.has(id)).length;
    const of = perRoot.get(root)!;
    const leaf = leaves[i]!;
    const skipped = mode === 'last' ? undefined : callIds.length === 0
      ? 'no model call on this branch (a /clear or a rewind before any reply)'
      : sharedCalls === callIds.length && of > 1 ? `no call of its own: its ${callIds.length} call${callIds.length === 1 ? ' is' : 's are'} replayed on an earlier branch` : undefined;
    if (skipped === undefined) for (const id of callIds) state.covered.add(id);
    return {
      leafId: leaf.id,
      line: leaf.line,
      ...(roots.size > 1 ? { conversation: roots.get(root)! } : {}),
      ...(of > 1 ? { branch: { index: state.index, of } } : {}),
      calls: callIds.length,
      sharedCalls,
      ...(skipped !== undefined ? { skipped } : {}),
    };
  });
}
