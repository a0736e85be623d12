/**
 * P8 on a branch move in the live session (edit and resend, continue on another branch): the
 * `before-fork` hook is told which branch is left behind and may write its summary itself or
 * cancel the move, as pi's `session_before_tree` does for a move in its session tree. Its answer is
 * checked here; a wrong one is an error naming the hook.
 */
import { entryText, type Entry } from '../journal/entry.ts';
import { HookRefusedError, HookResultError, type BeforeForkEvent, type HookRunner } from './user-hooks.ts';

/** What `before-fork` is given on a branch move: where the session continues, and what it leaves behind. */
export interface BranchMoveEvent extends BeforeForkEvent {
  kind: 'branch-move';
  /** The leaf of the branch left behind. */
  fromLeafId: string;
  /** The entries left behind (those a branch summary covers), as plain text. */
  leftBehind: Array<{ id: string; role: string; text: string }>;
}

const SHAPE = 'nothing, { cancel: true, reason?: string } or { summary: "non-empty text" }';

/** Checks a `before-fork` answer to a branch move: undefined (summarize as usual), cancel, or the summary to record. */
export function checkBranchMove(value: unknown): { cancel: true; reason?: string } | { summary: string } | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new HookResultError('before-fork', SHAPE, value);
  const { cancel, reason, summary } = value as Record<string, unknown>;
  if (Object.keys(value).some((key) => !['cancel', 'reason', 'summary'].includes(key))) throw new HookResultError('before-fork', SHAPE, value);
  if (cancel === true) return { cancel: true, ...(typeof reason === 'string' ? { reason } : {}) };
  if (cancel !== undefined && cancel !== false) throw new HookResultError('before-fork', SHAPE, value);
  if (summary === undefined) return undefined;
  if (typeof summary !== 'string' || summary.trim() === '') throw new HookResultError('before-fork', SHAPE, value);
  return { summary };
}

/** The event for a move from `fromLeafId` to `targetId` (null: the root), leaving `leftBehind` aside; `targetIndex` is its index on the new branch. */
export function branchMoveEvent(fromLeafId: string, targetId: string | null, targetIndex: number, leftBehind: readonly Entry[]): BranchMoveEvent {
  return {
    kind: 'branch-move', entryId: targetId ?? '', entryIndex: targetIndex, entriesLeftOut: leftBehind.length, fromLeafId,
    leftBehind: leftBehind.map((entry) => ({ id: entry.id, role: entry.role, text: entryText(entry) })),
  };
}

/**
 * Asks `before-fork` about a move (when the module exports it): the summary it wrote (absent:
 * summarize as usual), or why the move must not happen (it cancelled, threw, timed out or
 * answered something else), in a sentence for the user.
 */
export async function askBranchMove(hooks: HookRunner | undefined, event: () => BranchMoveEvent): Promise<{ summary?: string } | { refused: string }> {
  if (!hooks?.hooks.has('before-fork')) return {};
  try {
    const answer = checkBranchMove(await hooks.call('before-fork', event()));
    if (answer && 'cancel' in answer) return { refused: new HookRefusedError('before-fork', answer.reason).message };
    return answer ? { summary: answer.summary } : {};
  } catch (error) {
    return { refused: (error as Error).message };
  }
}
