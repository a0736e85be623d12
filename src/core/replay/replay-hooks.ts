/**
 * The user's hooks in a replay (P8): at each compaction the replay makes, `before-compact` sees the
 * plan and may cancel that compaction (the replay goes on with the context as it was) or supply
 * the summary, and `after-compact` is told what the compaction produced. The hooks run elsewhere
 * (a sandbox worker in the app, a worker thread in the CLI) behind a `HookRunner`. A hook that
 * throws, times out or answers what it may not is reported as a note of the configuration, and
 * that compaction runs as it would without hooks.
 */
import type { CompactionHooks, CompactionOutcome } from '../compaction/run.ts';
import type { CompactionInput } from '../compaction/types.ts';
import { beforeCompactEvent, checkBeforeCompact, notifyAfterCompact, type HookRunner } from '../hooks/user-hooks.ts';

/** `before-compact` cancelled one compaction of the replay: it is not made, the replay goes on. */
export class ReplayHookCancel extends Error {
  override name = 'ReplayHookCancel';
  constructor(readonly reason: string | undefined) {
    super(`the before-compact hook cancelled it${reason ? `: ${reason}` : ''}`);
  }
}

/** The compaction hooks of the compaction before call `call` (0-based); failures become `notes`. */
export function replayCompactionHooks(runner: HookRunner, input: CompactionInput, call: number, notes: string[]): CompactionHooks {
  if (!runner.hooks.has('before-compact')) return {};
  return {
    async beforeCompact(plan) {
      if (plan.nothingToDo !== undefined && plan.summaries.length === 0) return undefined;
      let answer: ReturnType<typeof checkBeforeCompact>;
      try {
        answer = checkBeforeCompact(await runner.call('before-compact', beforeCompactEvent(input, plan)));
      } catch (error) {
        notes.push(`Call ${call + 1}: ${(error as Error).message} That compaction ran as without hooks.`);
        return undefined;
      }
      if (answer && 'cancel' in answer) {
        notes.push(`Call ${call + 1}: the before-compact hook cancelled the compaction${answer.reason ? ` (${answer.reason})` : ''}; the replay went on with the context as it was.`);
        throw new ReplayHookCancel(answer.reason);
      }
      return answer;
    },
  };
}

/** Tells `after-compact` about a compaction the replay made; its failure is a note. */
export async function replayAfterCompact(runner: HookRunner, outcome: CompactionOutcome, call: number, notes: string[]): Promise<void> {
  const failure = await notifyAfterCompact(runner, outcome);
  if (failure !== undefined) notes.push(`Call ${call + 1}: ${failure} The compaction stands.`);
}
