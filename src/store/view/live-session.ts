/**
 * A live session's chat as the page draws it from the journal stored so far: the branch shown
 * (the session's leaf once that is stored, else the newest entry), every branch the user can
 * continue on, and the agent's todo list on the shown branch (what the todo recap gives the model).
 */
import { currentTodos, type Todo } from '../../core/agent/todos.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { listBranches, pathTo, type Branch } from '../../core/journal/tree.ts';

export interface LiveBranchView {
  /** The leaf of the branch shown, undefined for an empty journal. */
  shownLeaf: string | undefined;
  /** Journal indices of the shown branch, root first. */
  path: number[];
  /** Every branch of the journal, the active one first. */
  branches: Branch[];
  /** The entries of the shown branch, root first. */
  branch: Entry[];
  /** The shown branch's todo list, undefined when the agent wrote none on it. */
  todos: Todo[] | undefined;
}

/**
 * The shown branch of `entries` (stored in journal order, so an entry's index is its place in the
 * array). While a turn runs the session's `leaf` may not be stored yet: the newest stored entry is
 * on its branch, so that one is shown.
 */
export function liveBranchView<E extends Entry>(entries: readonly E[], leaf: string | null | undefined): LiveBranchView & { branch: E[] } {
  const shownLeaf = leaf && entries.some((entry) => entry.id === leaf) ? leaf : entries.at(-1)?.id;
  const path = shownLeaf ? pathTo(entries, shownLeaf) : [];
  const branch = path.flatMap((index) => (entries[index] ? [entries[index]] : []));
  return { shownLeaf, path, branches: listBranches(entries), branch, todos: currentTodos(branch) };
}
