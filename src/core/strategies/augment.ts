/**
 * Augment-style history summarization (seed 000): before each agent-loop iteration, once the history
 * reaches `triggerOnHistorySizeChars` (or when the prompt cache is about to expire), the older
 * exchanges are replaced by one summary node — an abridged, structured history plus a model-written
 * summary — followed by the fixed reply, and the newest exchanges stay verbatim.
 */
import { wrapTranscript } from '../compaction/serialize.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, Fate, Plan, PreviousCompaction, SummaryTask, TriggerDecision } from '../compaction/types.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { abridgedHistory } from './augment/abridged.ts';
import { cacheExpiryDecision, cacheWrittenAt } from './augment/cache.ts';
import { isSystem } from './augment/exchanges.ts';
import { fmt } from './augment/format.ts';
import { historyView, type HistoryItem, type HistoryView } from './augment/history.ts';
import { applyMemoriesCompression, currentMemories, MEMORIES_TASK_ID, memoriesTask, planMemoriesCompression } from './augment/memories.ts';
import { buildContext, carriedCalls, fillSupervisor, nodeEntries, replacedRange, stripSummaryTags, type NodeSpec } from './augment/node.ts';
import { AUGMENT_OPTIONS, effectiveTemplate, parseAugmentOptions, type AugmentOptions } from './augment/params.ts';
import { insertionSequenceId } from './augment/sequence.ts';
import { splitHistory, type Split } from './augment/split.ts';
import { summarizerRange } from './augment/summarizer-range.ts';
import { keepToolPairs } from './augment/tool-pairs.ts';

export { cacheExpiryDecision } from './augment/cache.ts';
export { AUGMENT_CODE_DEFAULTS, AUGMENT_OPTIONS, parseAugmentOptions, type AugmentOptions } from './augment/params.ts';

/** Id of the history summary task. */
export const SUMMARY_TASK_ID = 'augment-summary';
/** Prompt file (prompts/augment-nested-section.md) that puts the previous summary into the new one's prompt (nested mode). */
export const NESTED_SECTION_PROMPT = 'augment-nested-section';
/** Words a summary is expected to have (the seed's suggested prompt: 500-1,000), for the estimate. */
export const SUMMARY_WORDS_ESTIMATE = 1_000;

/** A plan asked for a summary that the summarizer did not deliver. */
export class AugmentSummaryMissingError extends Error {
  override name = 'AugmentSummaryMissingError';
}

interface Firing {
  decision: TriggerDecision;
  /** The threshold the split uses when the trigger fires. */
  threshold?: number;
  split?: Split<HistoryItem>;
}

const isSummarizable = (item: HistoryItem) => item.kind === 'exchange' && !item.exchange.pinned;

/** Augment's checks (§1.2, §1.4) and the two triggers (§1.1), with the split that decided. */
function evaluate(input: CompactionInput, options: AugmentOptions, view: HistoryView): Firing {
  const size = view.totalSize;
  const label = view.byCounter ? 'historySize' : 'historyChars';
  const numbers: Record<string, number> = { historySize: size };
  const unitNote = !view.byCounter
    ? 'characters, Augment\'s unit'
    : `${view.unit}, sizeUnit = tokens: the thresholds are read in this unit`;
  const off = (rule: string, detail: string): Firing => ({ decision: { fire: false, rule, detail, numbers } });
  if (!options.enabled) return off('disabled', 'History summarization is disabled (enabled = false).');
  if (options.prompt === '') return off('disabled', 'The summarization prompt is empty: no summary is made (§1.2).');
  if (options.triggerOnHistorySizeChars <= 0 && options.triggerOnHistorySizeCharsWhenCacheExpiring <= 0) {
    return off('disabled', 'Both thresholds are 0: triggerOnHistorySizeChars and triggerOnHistorySizeCharsWhenCacheExpiring are disabled (§1.3).');
  }
  const split = (threshold: number) => splitHistory(view.items, (item) => item.size, options.historyTailSizeCharsToExclude, threshold, options.minTailExchanges);
  const why = (s: Split<HistoryItem>) => (s.head.some(isSummarizable) ? '' : s.head.length === 0 ? ` but the tail keeps every exchange (historyTailSizeCharsToExclude ${fmt(options.historyTailSizeCharsToExclude)}, minTailExchanges ${options.minTailExchanges})` : ' but every head exchange is pinned or already summarized');

  const details: string[] = [];
  const proactive = options.triggerOnHistorySizeChars;
  numbers.threshold = proactive;
  if (proactive > 0) {
    if (size >= proactive) {
      // The split walks the exchanges after the previous node: only once the size is there.
      const s = split(proactive);
      const fire = s.head.some(isSummarizable);
      const detail = `${label} ${fmt(size)} >= ${fmt(proactive)} (triggerOnHistorySizeChars; ${unitNote})${why(s)}`;
      if (fire) return { decision: { fire, rule: 'historySize', detail, numbers: { ...numbers, headSize: s.headSize, tailSize: s.tailSize } }, threshold: proactive, split: s };
      details.push(detail);
    } else {
      details.push(`${label} ${fmt(size)} < ${fmt(proactive)} (triggerOnHistorySizeChars; ${unitNote})`);
    }
  } else {
    details.push('triggerOnHistorySizeChars is 0 (disabled)');
  }

  const cacheThreshold = options.triggerOnHistorySizeCharsWhenCacheExpiring;
  const writtenAt = cacheWrittenAt(input);
  const cache = cacheExpiryDecision({
    cacheTTLMs: options.cacheTTLMs, bufferTimeBeforeCacheExpirationMs: options.bufferTimeBeforeCacheExpirationMs,
    threshold: cacheThreshold, historySize: size, cacheWrittenAt: writtenAt, now: input.now,
  });
  Object.assign(numbers, { cacheThreshold, cacheAgeMs: cache.cacheAgeMs, delayMs: cache.delayMs, ...(cache.firesAt !== undefined ? { cacheFiresAt: cache.firesAt } : {}) });
  if (cache.fire) {
    const s = split(cacheThreshold);
    const detail = `Cache expiring: ${cache.reason} (triggerOnHistorySizeCharsWhenCacheExpiring; ${unitNote})${why(s)}`;
    if (s.head.some(isSummarizable)) return { decision: { fire: true, rule: 'cacheExpiring', detail, numbers: { ...numbers, headSize: s.headSize, tailSize: s.tailSize } }, threshold: cacheThreshold, split: s };
    details.push(detail);
  } else {
    details.push(`cache-expiry trigger: ${cache.reason}`);
  }
  const below = off('belowThreshold', `${details.join('; ')}.`);
  // §1.5: the timer armed after the call, to fire before the cache expires (A1).
  if (cache.scheduled && !cache.due && cache.firesAt !== undefined) below.decision.wakeAt = cache.firesAt;
  return below;
}

/** Fates when no new summary is made: entries behind a current previous node stay represented by it. */
function currentFates(input: CompactionInput, view: HistoryView): Fate[] {
  const { entries } = input;
  const boundary = Math.min(view.previous?.boundary ?? 0, entries.length);
  // Plain loops: a replay plans over the whole branch at every compaction.
  const pinnedBefore = new Uint8Array(boundary);
  for (const item of view.items) {
    if (item.kind === 'exchange' && item.exchange.start < boundary) pinnedBefore.fill(1, item.exchange.start, item.exchange.end + 1);
  }
  const fates = new Array<Fate>(entries.length);
  for (let i = 0; i < entries.length; i++) fates[i] = i >= boundary || isSystem(entries[i]!) || pinnedBefore[i] === 1 ? 'keep' : 'summarize';
  return fates;
}

function previousNodeSpec(input: CompactionInput, view: HistoryView, fates: readonly Fate[]): NodeSpec | undefined {
  const node = view.previous;
  if (!node) return undefined;
  const after = input.entries[node.boundary];
  return {
    id: `augment-v${node.version}-${after?.id ?? 'end'}`, nodeText: node.nodeText, ackText: node.ackText,
    carried: carriedCalls(input.entries, fates), now: input.now, replaces: replacedRange(input.entries, fates, node.boundary),
  };
}

/** Tokens of a context, counted with the input's counter (what `tokensAfter` reports). */
function tokensOf(input: CompactionInput, context: CompactedContext['entries']): number {
  return context.reduce((sum, item) => sum + countEntry(item.entry, input.counter).total, 0);
}

/**
 * Tokens of the context `buildContext(entries, kept, cut, node)` makes, from the input's token
 * index for journal entries (the plan runs before every agent-loop iteration, so it must not
 * re-tokenize the branch, nor build the context only to count it); only the node is counted.
 */
function keptTokens(input: CompactionInput, fates: readonly Fate[], node: NodeSpec | undefined): number {
  let sum = 0;
  for (let i = 0; i < input.entries.length; i++) if (fates[i] === 'keep') sum += input.tokens.countAt(i);
  if (node) for (const item of nodeEntries(node, null)) sum += countEntry(item.entry, input.counter).total;
  return sum;
}

/** What the model sees now, before this compaction (the previous node applied, if any). */
function currentContext(input: CompactionInput, view: HistoryView) {
  const fates = currentFates(input, view);
  const spec = previousNodeSpec(input, view, fates);
  return { fates, context: buildContext(input.entries, (i) => fates[i] === 'keep', view.previous?.boundary ?? 0, spec) };
}

function memoriesPlan(input: CompactionInput, options: AugmentOptions) {
  return planMemoriesCompression(currentMemories(input, options.memories).text, {
    maxLines: options.memoriesMaxLines, compressionTarget: options.compressionTarget,
    numRecentMemoriesToKeep: options.numRecentMemoriesToKeep, compressionPrompt: options.compressionPrompt,
  });
}

type ExchangeItem = Extract<HistoryItem, { kind: 'exchange' }>;

function makePlan(input: CompactionInput, options: AugmentOptions): Plan {
  const view = historyView(input, options);
  const { decision, threshold, split } = evaluate(input, options, view);
  const notes: string[] = [];
  const template = effectiveTemplate(options);
  if (template.error) notes.push(`Error: ${template.error}`);
  notes.push(...view.notes);
  const currentFatesNow = currentFates(input, view);
  const current = { fates: currentFatesNow };
  const tokensBefore = keptTokens(input, currentFatesNow, previousNodeSpec(input, view, currentFatesNow));
  const memories = memoriesPlan(input, options);
  const memoryTasks: SummaryTask[] = memories.needed ? [memoriesTask(memories, options.compressionPrompt)] : [];
  const source = currentMemories(input, options.memories);
  if (source.text !== '') notes.push(`Memories${source.carried ? ' (as the previous run left them)' : ''}: ${memories.reason}.`);

  const base = { strategy: 'augment' as const, options: { ...options }, trigger: decision, compressions: [], tokensBefore };
  if (!decision.fire || !split || threshold === undefined) {
    const reason = decision.detail;
    return {
      ...base, fates: current.fates, summaries: memoryTasks, tokensAfterEstimate: tokensBefore,
      notes: [...notes, `No summary: ${reason}`],
      ...(memoryTasks.length === 0 ? { nothingToDo: reason } : {}),
    };
  }

  const { entries } = input;
  const head = split.head;
  const tail = split.tail;
  const firstTail = tail.find((item): item is ExchangeItem => item.kind === 'exchange');
  const cut = firstTail?.exchange.start ?? entries.length;
  const unit = view.unit;
  const cutRule = split.tailSize < options.historyTailSizeCharsToExclude
    ? `Wtt: tail reached historyTailSizeCharsToExclude ${fmt(options.historyTailSizeCharsToExclude)} ${unit} (${tail.length} exchange${tail.length === 1 ? '' : 's'}, ${fmt(split.tailSize)} ${unit}; the next older exchange would pass it)`
    : `Wtt: tail holds minTailExchanges ${options.minTailExchanges} (${tail.length} exchange${tail.length === 1 ? '' : 's'}, ${fmt(split.tailSize)} ${unit} >= historyTailSizeCharsToExclude ${fmt(options.historyTailSizeCharsToExclude)})`;

  const { fromItem, toItem, sent, note: zeeNote } = summarizerRange(head, entries, view);
  if (zeeNote) notes.push(zeeNote);

  const boundary = view.previous?.boundary ?? 0;
  const nested = options.summaryMode === 'nested';
  const fates = new Array<Fate>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    fates[i] = isSystem(entries[i]!) ? 'keep'
      : i < boundary ? (current.fates[i] === 'keep' ? 'keep' : nested ? 'summarize' : 'drop')
        : i >= cut ? 'keep' : 'summarize';
  }
  for (const item of head) {
    if (item.kind !== 'exchange') continue;
    const { start, end, pinned } = item.exchange;
    const dropped = !pinned && item.ordinal < fromItem.ordinal;
    for (let i = start; i <= end; i++) if (!isSystem(entries[i]!)) fates[i] = pinned ? 'keep' : dropped ? 'drop' : 'summarize';
  }
  // Behind an earlier summary's boundary a pinned exchange can straddle it: keep the partners there
  // (after the boundary, per-iteration cuts are handled by the reply carrying the calls, A7).
  const closed = keepToolPairs(entries, fates, options.exchangeUnit === 'turn' ? entries.length : boundary);
  if (closed > 0) notes.push(`${closed} entr${closed === 1 ? 'y is' : 'ies are'} kept verbatim so that no kept tool result loses its call, nor a kept call its result.`);
  const pinnedHead = head.filter((item) => item.kind === 'exchange').filter((item) => item.exchange.pinned).length;
  if (pinnedHead > 0) notes.push(`${pinnedHead} pinned exchange${pinnedHead === 1 ? ' stays' : 's stay'} verbatim before the summary node (A13)${sent.some((item) => item.exchange.pinned) ? '; the summarizer reads those inside its range as context' : ''}.`);

  if (view.previous) {
    notes.push(nested
      ? 'Nested mode: the previous summary is input to the new one (previousSummary), and the new node replaces it (§13.3).'
      : 'Replace mode: the previous summary node is dropped and not fed to the new summary, as Augment does (§2.1, §3.1).');
  }

  const abridged = abridgedHistory(entries, cut, options);
  notes.push(`Abridged history: the ${abridged.included} newest of ${abridged.available} exchanges before the tail, ${fmt(abridged.chars)} of ${fmt(options.totalCharsLimit)} chars (A5).`);

  // The node goes between the last head item and the first tail item (A10).
  const seqIds = view.items.map((item) => (item.kind === 'previous' ? item.node.sequenceId : item.ordinal));
  const sequenceId = insertionSequenceId(seqIds, head.length);
  notes.push(`Summary node sequenceId ${sequenceId} (between ${seqIds[head.length - 1] ?? 0} and ${seqIds[head.length] ?? 'the end'}).`);

  const previousSummary = nested && view.previous ? view.previous.summary : undefined;
  const task: SummaryTask = {
    id: SUMMARY_TASK_ID,
    prompt: options.prompt,
    from: fromItem.exchange.start,
    to: toItem.exchange.end,
    ...(previousSummary !== undefined ? { previousSummary } : {}),
    vars: {
      abridged_history: abridged.text,
      // Nested mode: the section asking to fold the earlier summary in is its own prompt file.
      ...(previousSummary !== undefined ? { previous_summary: wrapTranscript(previousSummary, 'previous_summary') } : { previous_summary_section: '' }),
      sequence_id: String(sequenceId),
    },
    ...(previousSummary !== undefined ? { sections: { previous_summary_section: NESTED_SECTION_PROMPT } } : {}),
  };

  const estimateNode: NodeSpec = {
    id: 'estimate',
    nodeText: fillSupervisor(template.template, { summary: 'word '.repeat(SUMMARY_WORDS_ESTIMATE).trim(), abridged_history: abridged.text }),
    ackText: options.summaryNodeResponseMessage,
    carried: carriedCalls(entries, fates), now: input.now, replaces: undefined,
  };
  const tokensAfterEstimate = keptTokens(input, fates, estimateNode);
  notes.push(`Estimate: ${fmt(tokensBefore)} -> ${fmt(tokensAfterEstimate)} ${input.counter.label} (the summary counted at ${fmt(SUMMARY_WORDS_ESTIMATE)} words).`);
  const tailLimitKept = split.tailSize < options.historyTailSizeCharsToExclude;
  if (!tailLimitKept) notes.push(`The kept tail (${fmt(split.tailSize)} ${unit}) is over historyTailSizeCharsToExclude: minTailExchanges ${options.minTailExchanges} keeps the newest exchange${options.minTailExchanges === 1 ? '' : 's'} whole.`);

  return {
    ...base,
    cut: { index: cut, rule: cutRule },
    fates,
    summaries: [task, ...memoryTasks],
    tokensAfterEstimate,
    notes,
  };
}

function assemble(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: AugmentOptions): CompactedContext {
  const view = historyView(input, options);
  const notes: string[] = [];
  const template = effectiveTemplate(options);
  if (template.error) notes.push(`Error: ${template.error}`);
  const task = plan.summaries.find((t) => t.id === SUMMARY_TASK_ID);

  // The memories travel with the run's state, compressed or as they came (A11).
  const memoriesNow = currentMemories(input, options.memories);
  const memoryState: Record<string, unknown> = memoriesNow.carried ? { memories: memoriesNow.text } : {};
  const memoryText = summaries.get(MEMORIES_TASK_ID);
  if (plan.summaries.some((t) => t.id === MEMORIES_TASK_ID) && memoryText !== undefined) {
    const applied = applyMemoriesCompression(memoriesPlan(input, options), memoryText);
    memoryState.memories = applied.text;
    notes.push(`Memories compressed to ${applied.lines} lines${applied.overTarget ? ` (over the target of ${options.compressionTarget}: the model wrote more lines than asked)` : ''}.`);
  }

  if (!task || plan.cut === undefined) {
    const { context } = options.enabled ? currentContext(input, view) : { context: buildContext(input.entries, () => true, 0, undefined) };
    const previous: PreviousCompaction = input.previous ?? { strategy: 'augment', summaries: [] };
    return {
      entries: context, tokensAfter: tokensOf(input, context),
      previous: Object.keys(memoryState).length > 0 ? { ...previous, state: { ...previous.state, ...memoryState } } : previous,
      truncationApplied: false, summaryApplied: false, notes,
    };
  }

  const raw = summaries.get(task.id);
  if (raw === undefined) throw new AugmentSummaryMissingError(`The plan asked for summary "${task.id}" but none was produced; nothing was changed.`);
  const summary = stripSummaryTags(raw);
  const abridged = task.vars?.abridged_history ?? '';
  const nodeText = fillSupervisor(template.template, { summary, abridged_history: abridged });
  const ackText = options.summaryNodeResponseMessage;
  const cut = plan.cut.index;
  const kept = (i: number) => plan.fates[i] === 'keep';
  const carried = carriedCalls(input.entries, plan.fates);
  if (carried.length > 0) notes.push(`The summary node's reply carries ${carried.length} tool call${carried.length === 1 ? '' : 's'} of the summarized head whose results stay in the context (A7).`);
  const replaces = replacedRange(input.entries, plan.fates, cut);
  const after = input.entries[cut];
  const spec: NodeSpec = { id: `augment-v${options.historySummaryVersion}-${after?.id ?? 'end'}`, nodeText, ackText, carried, now: input.now, replaces };
  const context = buildContext(input.entries, kept, cut, spec);
  const sequenceId = Number(task.vars?.sequence_id ?? Number.NaN);
  return {
    entries: context,
    tokensAfter: tokensOf(input, context),
    previous: {
      strategy: 'augment',
      summaries: [summary],
      ...(after ? { firstKeptEntryId: after.id } : {}),
      state: {
        version: options.historySummaryVersion, nodeText, ackText, mode: options.summaryMode, compactedAt: input.now,
        ...(replaces ? { lastReplacedEntryId: replaces.toId } : {}),
        ...(Number.isFinite(sequenceId) ? { sequenceId } : {}),
        ...memoryState,
      },
    },
    truncationApplied: plan.fates.includes('drop'),
    summaryApplied: true,
    notes,
  };
}

export const augmentStrategy: Strategy<AugmentOptions> = {
  id: 'augment',
  label: 'Augment history summary',
  seed: '000_f7fee1ad32799c1c.txt',
  description: 'Past a character threshold, older exchanges become one summary node (abridged history + model summary); the newest stay verbatim.',
  options: AUGMENT_OPTIONS,
  parse: parseAugmentOptions,
  trigger(input, options) {
    return evaluate(input, options, historyView(input, options)).decision;
  },
  plan: makePlan,
  assemble,
};
