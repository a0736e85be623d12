/**
 * pi's extension hooks (P8) on top of the orchestrator's: `session_before_compact` sees what is
 * about to be summarized and may cancel or supply its own summary; `session_compact` receives the
 * compaction entry afterwards. A plan with nothing to do calls neither, as in pi.
 */
import type { CompactionHooks, CompactionOutcome } from '../../compaction/run.ts';
import type { CompactionInput, Plan } from '../../compaction/types.ts';
import type { Entry } from '../../journal/entry.ts';
import { resolveBoundary } from './boundary.ts';
import { compactionEntry, type PiCompactionEntry } from './compaction-entry.ts';
import { cumulativeFileLists } from './file-lists.ts';
import { HISTORY_TASK, TURN_PREFIX_TASK } from './plan.ts';

/** What a before-compact handler is shown (pi's CompactionPreparation). */
export interface PiPreparation {
  firstKeptEntryId: string;
  /** Entries the history summary covers (empty when only a turn prefix is new). */
  entriesToSummarize: readonly Entry[];
  /** Entries of the split turn's prefix (empty unless isSplitTurn). */
  turnPrefixEntries: readonly Entry[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  /** Cumulative file lists the summary will carry. */
  readFiles: string[];
  modifiedFiles: string[];
  plan: Plan;
}

export type BeforeCompactResult = { cancel?: boolean; summary?: string } | void;

export interface PiHookHandlers {
  /** session_before_compact: return `{cancel: true}` to stop, or `{summary}` to use your text instead of the summarizer's. */
  beforeCompact?(preparation: PiPreparation): BeforeCompactResult | Promise<BeforeCompactResult>;
  /** session_compact: the entry pi would append, after the context is built. */
  afterCompact?(entry: PiCompactionEntry, outcome: CompactionOutcome): void;
}

/** The preparation a plan stands for; undefined when the plan has nothing to do. */
export function preparation(input: CompactionInput, plan: Plan): PiPreparation | undefined {
  if (plan.nothingToDo !== undefined || plan.cut === undefined) return undefined;
  const boundary = resolveBoundary(input);
  const range = (id: string) => {
    const task = plan.summaries.find((t) => t.id === id);
    return task ? input.entries.slice(task.from, task.to + 1) : [];
  };
  const prefix = range(TURN_PREFIX_TASK);
  const lists = cumulativeFileLists(boundary, input.entries.slice(boundary.start, plan.cut.index));
  return {
    firstKeptEntryId: input.entries[plan.cut.index]!.id,
    entriesToSummarize: range(HISTORY_TASK),
    turnPrefixEntries: prefix,
    isSplitTurn: prefix.length > 0,
    tokensBefore: plan.tokensBefore,
    ...(boundary.previousSummary !== undefined ? { previousSummary: boundary.previousSummary } : {}),
    readFiles: lists.readFiles,
    modifiedFiles: lists.modifiedFiles,
    plan,
  };
}

/** Orchestrator hooks (runCompaction's `hooks`) that speak pi's preparation and compaction entry. */
export function piHooks(input: CompactionInput, handlers: PiHookHandlers): CompactionHooks {
  return {
    async beforeCompact(plan) {
      const prep = preparation(input, plan);
      if (!prep || !handlers.beforeCompact) return undefined;
      return (await handlers.beforeCompact(prep)) ?? undefined;
    },
    afterCompact(outcome) {
      const entry = compactionEntry(outcome);
      if (entry) handlers.afterCompact?.(entry, outcome);
    },
  };
}
