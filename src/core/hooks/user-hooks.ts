/**
 * User hooks around a compaction (P8, after pi's extension events): `before-compact` sees the plan
 * and may supply its own summary or cancel, `after-compact` is told what the run produced, and
 * `before-fork` may stop a compaction that forks the session at an earlier point. A hook is a
 * function exported by a module the user writes; it runs elsewhere (a worker in the app, a worker
 * thread in the CLI) behind a `HookRunner`, and gets plain data only. Its answers are checked
 * here, and every failure is an error naming the hook.
 */
import type { CompactionHooks, CompactionOutcome } from '../compaction/run.ts';
import type { CompactionInput, Plan } from '../compaction/types.ts';
import { entryText } from '../journal/entry.ts';

export type HookName = 'before-compact' | 'after-compact' | 'before-fork';

/** The export each hook is read from: `export function beforeCompact(event) {...}`. */
export const HOOK_EXPORTS: Readonly<Record<HookName, string>> = {
  'before-compact': 'beforeCompact',
  'after-compact': 'afterCompact',
  'before-fork': 'beforeFork',
};

/** Default time one hook call may take, ms. */
export const DEFAULT_HOOK_TIMEOUT_MS = 2000;

/** Runs the user's hooks somewhere else; resolves with what the hook returned (plain data). */
export interface HookRunner {
  /** The hooks the module exports. */
  readonly hooks: ReadonlySet<HookName>;
  call(name: HookName, event: unknown): Promise<unknown>;
}

/** What `before-compact` is given: the plan, and the entries the summaries would cover. */
export interface BeforeCompactEvent {
  strategy: string;
  trigger: { fire: boolean; rule: string; detail: string };
  cut: { index: number; entryId: string | null; rule: string } | null;
  tokensBefore: number;
  tokensAfterEstimate: number;
  counter: string;
  summaries: Array<{ id: string; prompt: string; entryIds: string[]; previousSummary: string | null }>;
  /** The entries any summary covers, in order, as plain text. */
  entries: Array<{ index: number; id: string; role: string; text: string }>;
}

/** What `after-compact` is given. */
export interface AfterCompactEvent {
  strategy: string;
  summaries: Record<string, string>;
  tokensBefore: number;
  tokensAfter: number;
  summaryApplied: boolean;
  truncationApplied: boolean;
  firstKeptEntryId: string | null;
  contextEntries: number;
}

/** What `before-fork` is given: the session is taken up again after `entryId`, later entries left aside. */
export interface BeforeForkEvent {
  entryId: string;
  /** Index of that entry on the branch. */
  entryIndex: number;
  /** Entries of the branch after it, which the fork leaves out. */
  entriesLeftOut: number;
}

export class HookLoadError extends Error {
  override name = 'HookLoadError';
  constructor(message: string, readonly line?: number) {
    super(`The hook module did not load: ${message}${line !== undefined ? ` (line ${line})` : ''}. Fix the module and run again.`);
  }
}

export class HookRuntimeError extends Error {
  override name = 'HookRuntimeError';
  constructor(readonly hook: HookName, message: string, readonly line?: number) {
    super(`The ${hook} hook threw: ${message}${line !== undefined ? ` (line ${line})` : ''}.`);
  }
}

export class HookTimeoutError extends Error {
  override name = 'HookTimeoutError';
  constructor(readonly hook: HookName, readonly timeoutMs: number) {
    super(`The ${hook} hook did not answer within ${timeoutMs.toLocaleString('en-US')} ms and was stopped. Look for an endless loop, or make it faster.`);
  }
}

/** A hook answered something it may not. */
export class HookResultError extends Error {
  override name = 'HookResultError';
  constructor(readonly hook: HookName, expected: string, got: unknown) {
    super(`The ${hook} hook returned ${describe(got)}; expected ${expected}.`);
  }
}

/** A hook said cancel: nothing was changed. A hook's refusal, not the user's cancel (isCancelled is false). */
export class HookRefusedError extends Error {
  override name = 'HookRefusedError';
  constructor(readonly hook: HookName, reason: string | undefined) {
    super(`The ${hook} hook cancelled ${hook === 'before-fork' ? 'the fork' : 'the compaction'}${reason ? `: ${reason}` : ''}. Nothing was changed.`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with ${Object.keys(value as object).map((k) => `"${k}"`).join(', ') || 'no keys'}`;
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 40) ?? ''}`.trim();
}

const BEFORE_COMPACT_SHAPE = 'nothing, { cancel: true, reason?: string } or { summary: "non-empty text" }';
const BEFORE_FORK_SHAPE = 'nothing or { cancel: true, reason?: string }';

/** Checks a `before-compact` answer: undefined (go on), cancel, or a summary to use instead of the summarizer's. */
export function checkBeforeCompact(value: unknown): { cancel: true; reason?: string } | { summary: string } | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new HookResultError('before-compact', BEFORE_COMPACT_SHAPE, value);
  const { cancel, summary, reason } = value as Record<string, unknown>;
  const unknownKeys = Object.keys(value).filter((key) => !['cancel', 'summary', 'reason'].includes(key));
  if (unknownKeys.length > 0) throw new HookResultError('before-compact', BEFORE_COMPACT_SHAPE, value);
  if (cancel === true) return { cancel: true, ...(typeof reason === 'string' ? { reason } : {}) };
  if (cancel !== undefined && cancel !== false) throw new HookResultError('before-compact', BEFORE_COMPACT_SHAPE, value);
  if (summary === undefined) return undefined;
  if (typeof summary !== 'string' || summary.trim() === '') throw new HookResultError('before-compact', BEFORE_COMPACT_SHAPE, value);
  return { summary };
}

/** Checks a `before-fork` answer. */
export function checkBeforeFork(value: unknown): { cancel: true; reason?: string } | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new HookResultError('before-fork', BEFORE_FORK_SHAPE, value);
  const { cancel, reason } = value as Record<string, unknown>;
  if (Object.keys(value).some((key) => key !== 'cancel' && key !== 'reason')) throw new HookResultError('before-fork', BEFORE_FORK_SHAPE, value);
  if (cancel === true) return { cancel: true, ...(typeof reason === 'string' ? { reason } : {}) };
  if (cancel !== undefined && cancel !== false) throw new HookResultError('before-fork', BEFORE_FORK_SHAPE, value);
  return undefined;
}

export function beforeCompactEvent(input: CompactionInput, plan: Plan): BeforeCompactEvent {
  const covered = new Set<number>();
  const summaries = plan.summaries.map((task) => {
    const indices = task.indices ?? Array.from({ length: Math.max(0, task.to - task.from + 1) }, (_, k) => task.from + k);
    indices.forEach((i) => covered.add(i));
    return { id: task.id, prompt: task.prompt, entryIds: indices.map((i) => input.entries[i]?.id ?? '').filter(Boolean), previousSummary: task.previousSummary ?? null };
  });
  return {
    strategy: plan.strategy,
    trigger: { fire: plan.trigger.fire, rule: plan.trigger.rule, detail: plan.trigger.detail },
    cut: plan.cut ? { index: plan.cut.index, entryId: input.entries[plan.cut.index]?.id ?? null, rule: plan.cut.rule } : null,
    tokensBefore: plan.tokensBefore,
    tokensAfterEstimate: plan.tokensAfterEstimate,
    counter: input.counter.label,
    summaries,
    entries: [...covered].sort((a, b) => a - b).flatMap((i) => {
      const entry = input.entries[i];
      return entry ? [{ index: i, id: entry.id, role: entry.role, text: entryText(entry) }] : [];
    }),
  };
}

export function afterCompactEvent(outcome: CompactionOutcome): AfterCompactEvent {
  const { context, plan } = outcome;
  return {
    strategy: plan.strategy,
    summaries: outcome.summaries,
    tokensBefore: plan.tokensBefore,
    tokensAfter: context.tokensAfter,
    summaryApplied: context.summaryApplied,
    truncationApplied: context.truncationApplied,
    firstKeptEntryId: context.previous?.firstKeptEntryId ?? null,
    contextEntries: context.entries.length,
  };
}

/** `runCompaction`'s before-compact hook backed by the user's; a plan with nothing to do asks nothing (as pi). */
export function userCompactionHooks(runner: HookRunner, input: CompactionInput): CompactionHooks {
  if (!runner.hooks.has('before-compact')) return {};
  return {
    async beforeCompact(plan) {
      if (plan.nothingToDo !== undefined && plan.summaries.length === 0) return undefined;
      const answer = checkBeforeCompact(await runner.call('before-compact', beforeCompactEvent(input, plan)));
      if (answer && 'cancel' in answer) throw new HookRefusedError('before-compact', answer.reason);
      return answer;
    },
  };
}

/**
 * Tells `after-compact` about a finished run. Its failure does not undo the run (the context is
 * made); it is returned as a note to show with it.
 */
export async function notifyAfterCompact(runner: HookRunner, outcome: CompactionOutcome): Promise<string | undefined> {
  if (!runner.hooks.has('after-compact')) return undefined;
  try {
    await runner.call('after-compact', afterCompactEvent(outcome));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Asks `before-fork` when a compaction takes the branch up at an earlier point (`upTo` before its
 * last entry). Throws HookRefusedError when the hook cancels.
 */
export async function askBeforeFork(runner: HookRunner, branch: readonly { id: string }[], keptCount: number): Promise<void> {
  if (!runner.hooks.has('before-fork') || keptCount >= branch.length || keptCount === 0) return;
  const event: BeforeForkEvent = { entryId: branch[keptCount - 1]!.id, entryIndex: keptCount - 1, entriesLeftOut: branch.length - keptCount };
  const answer = checkBeforeFork(await runner.call('before-fork', event));
  if (answer) throw new HookRefusedError('before-fork', answer.reason);
}
