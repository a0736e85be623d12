/**
 * A fold of the folding replay in the replay's terms (`ReplayCompaction`): the fold triggers that
 * fired as its trigger, a plan saying what the fold did (levels, what each entry became), the
 * blocks it newly shows as a summary (offline digests) as its summaries, and the record a
 * compaction log keeps. Also why a call the fold sent was over the window.
 */
import type { CompactionRecord } from '../compaction/run.ts';
import type { Fate, TriggerDecision } from '../compaction/types.ts';
import type { FoldOptions } from '../folding/options.ts';
import type { FoldEvent, FoldTrigger } from '../folding/types.ts';
import type { FoldContext } from './folding-context.ts';
import { scoreOf } from './scoring.ts';
import type { ProbeOutcome, ReplayCompaction, ReplayPlan } from './types.ts';

/** The prompt id a fold's summaries are listed under: they are extracted, no prompt is sent. */
export const OFFLINE_DIGEST = 'offline-digest';

const WHY: Record<string, string> = {
  pressure: 'the context crossed pressureRatio',
  critical: 'the context is above criticalRatio (the oldest L1 content folds at once)',
  periodic: 'periodic fold',
  semantic: 'the model said a phase was completed',
};

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (ratio: number | undefined) => `${Math.round((ratio ?? 0) * 100)}%`;

export interface FoldCompactionArgs {
  call: number;
  /** The fold events (levels raised) logged since the previous call. */
  folds: readonly FoldEvent[];
  options: FoldOptions;
  counter: string;
  context: FoldContext;
  /** Summary texts the previous fold's context already showed. */
  previousTexts: ReadonlySet<string>;
  tokensBefore: number;
  tokensAfter: number;
  /** First input entry after the fold (the iteration in progress), and the call's entry. */
  appendFrom: number;
  end: number;
  removedIds: string[];
  probes: ProbeOutcome[];
  /** Level of every iteration pushed so far. */
  levels: readonly number[];
  keyMoments: number;
  durationMs: number;
}

export function foldTrigger(folds: readonly FoldEvent[]): TriggerDecision {
  const rules = [...new Set(folds.map((event) => event.trigger))];
  const detail = folds.map((event) => {
    const n = event.numbers;
    return `${WHY[event.trigger] ?? event.trigger} at iteration ${event.iteration} (context ${fmt(n.tokensBefore ?? 0)} tokens, ${pct(n.pressure)} of the window; periodic folds every ${n.every ?? '?'} iterations at this pressure): ${n.foldedIterations ?? 0} iteration(s) folded further`;
  }).join('; ');
  return { fire: true, rule: rules.join('+'), detail, numbers: { ...(folds.at(-1)?.numbers ?? {}), folds: folds.length } };
}

export function foldCompaction(a: FoldCompactionArgs): ReplayCompaction {
  const trigger = foldTrigger(a.folds);
  const levels = [0, 0, 0, 0, 0];
  for (const level of a.levels) levels[level] = (levels[level] ?? 0) + 1;
  const made = a.context.folded.filter((f) => !a.previousTexts.has(f.text));
  const summaries: Record<string, string> = {};
  for (const { block, text } of made) summaries[`${block.id} (L${block.level})`] = text;
  let keep = a.end - a.appendFrom;
  for (const i of a.context.verbatim) if (i < a.appendFrom) keep++;
  const compress = a.context.compressed.count;
  const fates: Record<Fate, number> = { keep, compress, summarize: Math.max(0, a.end - keep - compress), drop: 0 };
  const notes = [
    `Levels after the fold: ${levels.map((n, l) => `L${l} ${fmt(n)}`).join(', ')} iterations (key moments stay at L0: ${fmt(a.keyMoments)}).`,
    `Distances: L0 up to ${a.options.l0Distance} iterations back, L1 up to ${a.options.l1Distance}, L2 up to ${a.options.l2Distance}, L3 up to ${a.options.l3Distance}, L4 beyond; zone budgets push the oldest content further down.`,
    `${fmt(a.context.folded.length)} block(s) shown as a summary (${fmt(made.length)} new at this fold), ${fmt(compress)} entries with their tool outputs elided (${fmt(a.context.compressed.tokensSaved)} tokens saved).`,
    'Digests by offline extraction (no model, no summarizer tokens).',
  ];
  const plan: ReplayPlan = {
    strategy: 'folding',
    options: a.options as unknown as Record<string, unknown>,
    trigger,
    notes,
    tokensBefore: a.tokensBefore,
    tokensAfterEstimate: a.tokensAfter,
    summaries: made.map(({ block }) => ({ id: `${block.id} (L${block.level})`, prompt: OFFLINE_DIGEST, from: block.entryFrom, to: block.entryTo })),
    fates,
    compressions: { count: compress, tokensSaved: a.context.compressed.tokensSaved },
  };
  const record: CompactionRecord = {
    event: 'context_management',
    strategy: 'folding',
    options: Object.fromEntries(Object.entries(a.options).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value as number | boolean | string])),
    trigger,
    truncation_applied: false,
    summary_applied: a.context.folded.length > 0,
    dropped_messages: 0,
    kept_messages: keep,
    summarized_messages: fates.summarize,
    compressed_messages: compress,
    tokens_before: a.tokensBefore,
    tokens_after: a.tokensAfter,
    counter: a.counter,
    summarizer: 'offline',
    summarizer_model: OFFLINE_DIGEST,
    summary_usage: { input: 0, output: 0 },
    prompts: [],
    prompt_versions: {},
    duration_ms: a.durationMs,
    at: 0,
    notes,
  };
  return {
    call: a.call, trigger, plan, summaries, record, tokensBefore: a.tokensBefore, tokensAfter: a.tokensAfter,
    context: a.context.refs, appendFrom: a.appendFrom, removedIds: a.removedIds, probes: a.probes, scores: scoreOf(a.probes),
  };
}

export interface OverflowFacts {
  compacted: boolean;
  /** The latest fold decision of the session (fold or nothing to fold), if any. */
  lastEvent: FoldEvent | undefined;
  /** Tokens recorded in the iteration in progress before the call. */
  partialTokens: number;
  tokens: number;
  window: number;
  /** The fold's own measure of its context after the last completed iteration (what its triggers read), and the window it measures against. */
  measured: number;
  foldWindow: number;
  iteration: number;
  /** Whether an iteration was completed since the previous call. */
  pushedNow: boolean;
}

/** Why a call the fold sent was larger than the window. */
export function foldOverflowNote(f: OverflowFacts): string {
  const over = `${fmt(f.tokens)} tokens > window ${fmt(f.window)}`;
  const partial = `${fmt(f.partialTokens)} tokens recorded in iteration ${f.iteration} so far, which folds only once it is complete`;
  if (f.compacted) return `${over} even after folding: what the memory keeps (key moments and bookmarks at L0, system messages, the retrieved zone) and ${partial} are larger than the window.`;
  if (!f.pushedNow) return `${over}: no iteration was completed since the previous call (${partial}).`;
  const last = f.lastEvent;
  if (last?.action === 'nothing-to-fold') return `${over}: the ${last.trigger as FoldTrigger} trigger fired at iteration ${last.iteration} but there was nothing left to fold (${partial}).`;
  const unmeasured = f.measured + f.partialTokens < f.tokens ? ', which leaves out the iterations brought nearer since its last fold' : '';
  return `${over}: the folding triggers did not fire${last ? ` after iteration ${last.iteration}` : ''}; they read ${fmt(f.measured)} tokens (${pct(f.measured / f.foldWindow)} of the fold's window)${unmeasured}; ${partial}.`;
}
