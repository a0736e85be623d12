/**
 * pi's trigger and planner: the end-of-run decision over the current context, then the cut, the
 * summary tasks (history, plus the turn prefix when the cut splits a turn) and a fate per entry.
 * Counts are input.tokens, in whatever counter the user chose; the trigger detail names it.
 */
import type { CompactionInput, Fate, Plan, SummaryTask, TriggerDecision } from '../../compaction/types.ts';
import { currentContextTokens, isSystemMessage, resolveBoundary, type Boundary } from './boundary.ts';
import { findCutPoint } from './cut-point.ts';
import { piContextTokens, type PiContextCount } from './context-tokens.ts';
import { lastRunEnd, shouldCompact, type CompactDecision } from './decision.ts';
import { cumulativeFileLists, formatFileSections, stripFileSections } from './file-lists.ts';
import { unseenTokens } from '../../compaction/unseen-prefix.ts';
import { groupDigits, historySummaryTokens, turnPrefixSummaryTokens, type PiOptions } from './options.ts';

/** Task id of the history summary (new or updated). */
export const HISTORY_TASK = 'history';
/** Task id of the split turn's prefix summary. */
export const TURN_PREFIX_TASK = 'turn-prefix';
/** The history part when a split turn is all there is to summarize and no earlier summary exists. */
export const NO_EARLIER_HISTORY = 'No earlier history: the summarized part is the start of the current turn.';
/** Joins the history summary and the turn-prefix summary into one. */
export const SPLIT_TURN_SEPARATOR = '\n\n---\n\n**Context from earlier in the current turn (split turn):**\n\n';

interface Decided {
  boundary: Boundary;
  /** The current context by input.tokens (the plan's before / after figures). */
  contextTokens: number;
  /** The current context as pi counts it for the decision (P9). */
  count: PiContextCount;
  decision: CompactDecision;
  run: ReturnType<typeof lastRunEnd>;
  trigger: TriggerDecision;
}

function decide(input: CompactionInput, options: PiOptions): Decided {
  const boundary = resolveBoundary(input);
  const contextTokens = currentContextTokens(input, boundary);
  const count = piContextTokens(input, boundary);
  const run = lastRunEnd(input.entries);
  // Silent overflow (P1): a successful reply whose recorded prompt is above the window. Only where
  // the usage describes this context (the same rule as the count): after a compaction the source
  // never made, its usage is of its own, larger context; with an unseen prefix given, the size is the
  // counted one, which the threshold below the window already covers.
  const runEnd = run ? { ...run.runEnd } : undefined;
  if (runEnd && (input.previous || input.unseenPrefixTokens !== undefined)) delete runEnd.inputTokens;
  const decision = shouldCompact({
    runEnd,
    contextTokens: count.tokens,
    contextWindow: input.contextWindow,
    reserveTokens: options.reserveTokens,
    enabled: options.enabled,
    counterLabel: count.label,
  });
  const trigger: TriggerDecision = {
    fire: decision.compact,
    rule: decision.rule,
    detail: decision.detail,
    numbers: {
      contextTokens: count.tokens,
      usageTokens: count.usageTokens,
      estimatedTokens: count.estimatedTokens,
      contextWindow: input.contextWindow,
      reserveTokens: options.reserveTokens,
      threshold: input.contextWindow - options.reserveTokens,
      retry: decision.retry ? 1 : 0,
    },
  };
  return { boundary, contextTokens, count, decision, run, trigger };
}

/** P1 over the branch: the last reply's stop reason and the current context's tokens. */
export function triggerPi(input: CompactionInput, options: PiOptions): TriggerDecision {
  return decide(input, options).trigger;
}

/** The entries i..j without system messages at either end (those are kept, not summarized). */
function trimSystem(input: CompactionInput, from: number, to: number): [number, number] {
  let i = from;
  let j = to;
  while (i <= j && isSystemMessage(input.entries[i]!)) i++;
  while (j >= i && isSystemMessage(input.entries[j]!)) j--;
  return [i, j];
}

export function planPi(input: CompactionInput, options: PiOptions): Plan {
  const { entries, tokens, counter } = input;
  const n = entries.length;
  const { boundary, contextTokens, count, decision, run, trigger } = decide(input, options);
  const notes = [...boundary.notes];
  notes.push(count.note);
  notes.push(`The cut and the before / after figures count with ${counter.label}.`);

  const fates: Fate[] = entries.map((entry, i) => (i < boundary.start && !isSystemMessage(entry) ? 'summarize' : 'keep'));
  const base = { strategy: 'pi' as const, options: { ...options }, trigger, summaries: [] as SummaryTask[], compressions: [], tokensBefore: contextTokens };
  const nothing = (reason: string): Plan => ({ ...base, fates, tokensAfterEstimate: contextTokens, notes: [...notes, reason], nothingToDo: reason });

  // pi drops the overflowing reply before compacting and retrying; it must be the branch's last entry.
  let end = n;
  const dropIndex = decision.dropErrorReply && run && run.index === n - 1 && !entries[run.index]!.blocks.some((b) => b.type === 'tool_call') ? run.index : -1;
  if (dropIndex >= 0) end = dropIndex;

  const since = boundary.start > 0 ? 'since the last compaction' : 'in the branch';
  if (n === 0) return nothing('The branch is empty: nothing to compact.');
  if (boundary.start >= end) return nothing(`No entries ${since}: nothing to compact.`);
  const spanTokens = tokens.range(boundary.start, end - 1);
  if (spanTokens < options.keepRecentTokens) {
    return nothing(`Too short to compact: the ${groupDigits(spanTokens)} tokens ${since} (${counter.label}) are below keepRecentTokens ${groupDigits(options.keepRecentTokens)}, so pi would keep them all.`);
  }
  const cut = findCutPoint(entries, tokens, boundary.start, end, options.keepRecentTokens);
  if (!cut) return nothing(`No user or assistant message ${since} to cut at: nothing to compact.`);
  const first = cut.firstKeptIndex;
  let summarizable = 0;
  for (let i = boundary.start; i < first; i++) if (!isSystemMessage(entries[i]!)) summarizable++;
  if (summarizable === 0) {
    return nothing(`Nothing to summarize: keeping keepRecentTokens ${groupDigits(options.keepRecentTokens)} reaches back to ${entries[boundary.start]!.id}, the first entry ${since}. ${cut.steps.join(' ')}`);
  }

  for (let i = boundary.start; i < first; i++) if (!isSystemMessage(entries[i]!)) fates[i] = 'summarize';
  if (dropIndex >= 0) {
    fates[dropIndex] = 'drop';
    notes.push(`Context overflow: the error reply ${entries[dropIndex]!.id} is left out of the context; the run is retried after compacting.`);
  }

  const summaries: SummaryTask[] = [];
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : first;
  const [hFrom, hTo] = trimSystem(input, boundary.start, historyEnd - 1);
  const focus = options.customInstructions.trim() ? `\n\nAdditional focus: ${options.customInstructions.trim()}` : '';
  let summaryTokens = 0;
  if (hFrom <= hTo) {
    const update = boundary.previousSummary !== undefined;
    summaries.push({
      id: HISTORY_TASK,
      prompt: update ? 'pi-update-summary' : 'pi-summary',
      from: hFrom,
      to: hTo,
      ...(update ? { previousSummary: boundary.previousSummary } : {}),
      vars: { focus },
      maxTokens: historySummaryTokens(options),
    });
    summaryTokens += historySummaryTokens(options);
    notes.push(update
      ? `Update the previous summary with ${entries[hFrom]!.id}..${entries[hTo]!.id} (${hTo - hFrom + 1} entries, pi-update-summary), not a summary from scratch.`
      : `Summarize ${entries[hFrom]!.id}..${entries[hTo]!.id} (${hTo - hFrom + 1} entries, pi-summary).`);
  } else if (boundary.previousSummary !== undefined) {
    summaryTokens += counter.count(stripFileSections(boundary.previousSummary));
    notes.push('Only the current turn is new since the last compaction: the previous summary is kept as the history part.');
  } else {
    summaryTokens += counter.count(NO_EARLIER_HISTORY);
  }
  if (cut.isSplitTurn) {
    summaries.push({ id: TURN_PREFIX_TASK, prompt: 'pi-turn-prefix', from: cut.turnStartIndex, to: first - 1, vars: {}, maxTokens: turnPrefixSummaryTokens(options) });
    summaryTokens += turnPrefixSummaryTokens(options) + counter.count(SPLIT_TURN_SEPARATOR);
    notes.push(`Split turn: ${entries[cut.turnStartIndex]!.id}..${entries[first - 1]!.id} get a turn-prefix summary, made in parallel with the history summary and merged after it.`);
  }

  const pinned = input.pinned ? entries.filter((entry, i) => fates[i] === 'summarize' && i >= boundary.start && input.pinned!.has(entry.id)).length : 0;
  if (pinned > 0) notes.push(`pi has no pinning: ${pinned} pinned ${pinned === 1 ? 'entry is' : 'entries are'} summarized like the others.`);

  const lists = cumulativeFileLists(boundary, entries.slice(boundary.start, first));
  const sections = formatFileSections(lists);
  if (sections) notes.push(`File lists appended to the summary: ${lists.readFiles.length} read, ${lists.modifiedFiles.length} modified (carried across compactions).`);

  let systemBefore = 0;
  for (let i = 0; i < first; i++) if (isSystemMessage(entries[i]!)) systemBefore += tokens.countAt(i);
  const kept = tokens.range(first, end - 1) + (end < n ? tokens.range(end + 1, n - 1) : 0);
  const tokensAfterEstimate = systemBefore + summaryTokens + (sections ? counter.count(sections) : 0) + kept;
  const threshold = input.contextWindow - options.reserveTokens;
  const unseen = unseenTokens(input);
  if (tokensAfterEstimate + unseen > threshold) {
    const sent = unseen > 0 ? ` + ${groupDigits(unseen)} not in the transcript` : '';
    notes.push(`The compacted context (about ${groupDigits(tokensAfterEstimate)} tokens with summaries at their budget${sent}) is still above contextWindow - reserveTokens = ${groupDigits(threshold)}: keepRecentTokens ${groupDigits(options.keepRecentTokens)} leaves too little room.`);
  }

  return {
    ...base,
    cut: { index: first, rule: `${cut.steps.join(' ')} First kept entry: ${entries[first]!.id}.` },
    fates,
    summaries,
    tokensAfterEstimate,
    notes: [...notes, ...cut.steps],
  };
}
