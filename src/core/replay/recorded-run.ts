/**
 * The source agent's own run, as the transcript recorded it, beside the replayed configurations:
 * per replayed call the prompt tokens the agent's provider reported (`recordedSentTokens`: input +
 * cache read + cache write, as the importers normalize usage), the compactions the agent made
 * itself (Claude Code compact summaries, Codex `compacted`, pi `compaction` entries) at the call
 * they came before, and its tokens per task. And the run with no compaction at all (every call sent
 * everything before it), the baseline each configuration's tokens per task is divided by.
 *
 * The recorded figures are the provider's tokens (its tokenizer, the system prompt and tool
 * definitions included); the replayed ones are the chosen counter's, so the two curves meet only
 * as closely as the counter matches the provider.
 */
import { isSourceCompaction } from '../compaction/input-scope.ts';
import type { CompactionInput } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { activeLeaf, pathTo } from '../journal/tree.ts';
import { findCalls } from './calls.ts';
import { recordedSentTokens } from './recorded-usage.ts';

/** One replayed call as the agent recorded it. */
export interface RecordedCallPoint {
  /** 0-based call number, as the replay numbers calls. */
  call: number;
  /** Prompt tokens the provider reported for it; null where that call recorded none. */
  sentTokens: number | null;
  /** The agent compacted just before this call. */
  compacted: boolean;
}

/** A compaction the source agent made, at the replayed call it came before. */
export interface RecordedCompaction {
  /** The replayed call after it (0-based); the number of calls when it came after the last one. */
  call: number;
  entryId: string;
  /** Line of the summary in the source file. */
  line: number;
  /** The importer's name for it (`claude-code.compact_summary`, `codex.compacted`, `pi.compaction`, ...). */
  source: string;
}

export interface RecordedRun {
  series: RecordedCallPoint[];
  compactions: RecordedCompaction[];
  /** Sum of the recorded prompt tokens over the calls that recorded them. */
  tokensPerTask: number;
  /** Calls that recorded usage. */
  recordedCalls: number;
  peakTokens: number;
  /** Recorded calls whose prompt was over the window. */
  overflowCalls: number;
}

/** The run that never compacts: each call is sent every input entry before it. */
export interface UncompactedRun {
  tokensPerTask: number;
  peakTokens: number;
  overflowCalls: number;
}

export interface RecordedRunArgs {
  /** The whole journal and the leaf of the replayed branch (default: the active branch). */
  journal: readonly Entry[];
  leafId?: string;
  /** The replay's input entries, their journal indices (`BuiltInput.journalIndex`) and its first replayed call. */
  entries: readonly Entry[];
  journalIndex: readonly number[];
  firstCall: number;
  contextWindow: number;
}

/** The agent's own run over the replayed calls, or null when none of them recorded usage. */
export function recordedRun(args: RecordedRunArgs): RecordedRun | null {
  const calls = findCalls(args.entries, args.firstCall);
  const series: RecordedCallPoint[] = calls.map((index, call) => ({ call, sentTokens: recordedSentTokens(args.entries[index]!) ?? null, compacted: false }));
  const recorded = series.filter((point) => point.sentTokens !== null);
  if (recorded.length === 0) return null;

  // Positions on the branch path: a source compaction marks the first replayed call after it.
  const leaf = args.leafId ?? activeLeaf(args.journal)?.id;
  const path = leaf ? pathTo(args.journal, leaf) : args.journal.map((entry) => entry.index);
  const position = new Map(path.map((index, i) => [index, i]));
  const callPositions = calls.map((index) => position.get(args.journalIndex[index]!) ?? -1);
  const compactions: RecordedCompaction[] = [];
  for (let i = 0; i < path.length; i++) {
    const entry = args.journal[path[i]!]!;
    // A Claude Code boundary line is followed by its summary: the summary stands for the compaction.
    if (!isSourceCompaction(entry) || entry.role !== 'summary') continue;
    let call = callPositions.findIndex((p) => p > i);
    if (call < 0) call = calls.length;
    compactions.push({ call, entryId: entry.id, line: entry.line, source: entry.marker?.source ?? entry.sourceType ?? 'compaction' });
    if (call < series.length) series[call]!.compacted = true;
  }

  let tokensPerTask = 0;
  let peakTokens = 0;
  let overflowCalls = 0;
  for (const point of recorded) {
    const sent = point.sentTokens!;
    tokensPerTask += sent;
    peakTokens = Math.max(peakTokens, sent);
    if (sent > args.contextWindow) overflowCalls++;
  }
  return { series, compactions, tokensPerTask, recordedCalls: recorded.length, peakTokens, overflowCalls };
}

/**
 * The replayed calls with nothing ever compacted: call c is sent input entries `0..c-1` (counter
 * tokens, as a replay counts them) plus `unseenPrefixTokens` when the replay adds them too.
 */
export function uncompactedRun(input: Pick<CompactionInput, 'entries' | 'tokens' | 'contextWindow'>, firstCall: number, unseenPrefixTokens = 0): UncompactedRun {
  let tokensPerTask = 0;
  let peakTokens = 0;
  let overflowCalls = 0;
  for (const c of findCalls(input.entries, firstCall)) {
    const tokens = (c > 0 ? input.tokens.range(0, c - 1) : 0) + unseenPrefixTokens;
    tokensPerTask += tokens;
    peakTokens = Math.max(peakTokens, tokens);
    if (tokens > input.contextWindow) overflowCalls++;
  }
  return { tokensPerTask, peakTokens, overflowCalls };
}

/** A run's tokens per task over the uncompacted run's (1 = no saving), 4 decimals; null when the baseline is 0. */
export function ratioToUncompacted(tokensPerTask: number, uncompacted: Pick<UncompactedRun, 'tokensPerTask'>): number | null {
  return uncompacted.tokensPerTask > 0 ? Math.round((tokensPerTask / uncompacted.tokensPerTask) * 10_000) / 10_000 : null;
}
