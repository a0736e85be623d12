/**
 * The layered strategy (seed 002): L3 history of user / assistant / tool messages is archived in
 * whole turns into one fixed-template summary written as a system message, the last turns are
 * kept whole, older tool observations are compressed by per-tool rules, and summaries from
 * earlier runs are appended, never compressed again. Pure: plan, assemble and fallback only.
 */
import type { Entry } from '../journal/entry.ts';
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import { SummaryTimeoutError } from '../compaction/summarizer.ts';
import type {
  CompactedContext, CompactionInput, Compression, ContextEntry, Fate, Plan, PreviousCompaction, SummaryTask,
} from '../compaction/types.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import {
  ARCHIVE_PROMPT_ID, archiveEntry, frameArchivedSummary, isoTime, TIMEOUT_MESSAGE,
} from './layered/archived-summary.ts';
import { serializeReact } from './layered/react-serialize.ts';
import { callsById, compressEntry, type CompressionLimits } from './layered/tool-compression.ts';
import { layeredBranchFacts, summaryEntryTokens } from './layered/branch-facts.ts';
import { layeredTrigger } from './layered/trigger.ts';
import { classify, turnStarts, type EntryClass } from './layered/turns.ts';

export { serializeReact };

export interface LayeredOptions extends Options {
  keepTurns: number;
  contextWindow: number;
  triggerRatio: number;
  minMessages: number;
  summaryMaxTokens: number;
  readMaxLines: number;
  grepMaxLines: number;
  listMaxItems: number;
  snippetMaxLines: number;
  stderrTailLines: number;
}

/** The options with the seed's defaults (§A3, §A4, §A6, §C6, §C7, §E5). */
export const LAYERED_OPTIONS: readonly OptionSpec[] = [
  { name: 'keepTurns', alias: 'keep_turns', type: 'integer', default: 10, min: 1, max: 10_000, unit: 'turns', description: 'At least this many recent whole turns (user message to finished answer) stay verbatim.' },
  { name: 'contextWindow', alias: 'context_window', type: 'integer', default: 200_000, min: 1_000, max: 100_000_000, unit: 'tokens', description: 'Context window the trigger threshold is a fraction of (the seed fixes 200k; Config.context_window).' },
  { name: 'triggerRatio', alias: 'trigger_ratio', type: 'number', default: 0.8, min: 0.01, max: 1, description: 'Compact when last_usage + len(input)//3 reaches this fraction of the context window.' },
  { name: 'minMessages', alias: 'min_messages', type: 'integer', default: 3, min: 1, max: 10_000, unit: 'messages', description: 'Never compact a history with fewer messages than this.' },
  { name: 'summaryMaxTokens', alias: 'summary_max_tokens', type: 'integer', default: 2_000, min: 100, max: 100_000, unit: 'tokens', description: 'Length budget of the archived summary (not in the seed; used for the estimate and the summarizer).' },
  { name: 'readMaxLines', alias: 'read_max_lines', type: 'integer', default: 500, min: 1, max: 100_000, unit: 'lines', description: 'Read: lines of content kept in history (with line numbers).' },
  { name: 'grepMaxLines', alias: 'grep_max_lines', type: 'integer', default: 5, min: 1, max: 10_000, unit: 'lines', description: 'Grep: matching lines kept in history (file name and line number included).' },
  { name: 'listMaxItems', alias: 'list_max_items', type: 'integer', default: 10, min: 1, max: 10_000, unit: 'items', description: 'LS / Glob: first entries of a listing kept in history (the seed: 5-10).' },
  { name: 'snippetMaxLines', alias: 'snippet_max_lines', type: 'integer', default: 20, min: 1, max: 10_000, unit: 'lines', description: 'Edit / MultiEdit / Write: snippet lines kept; larger changes keep only the summary (the seed: 20-50).' },
  { name: 'stderrTailLines', alias: 'stderr_tail_lines', type: 'integer', default: 20, min: 1, max: 10_000, unit: 'lines', description: 'Bash: last lines of a failed command\'s output kept; stdout keeps only a summary.' },
];

/** The summarizer answered nothing usable for the archive. */
export class ArchivedSummaryMissingError extends Error {
  override name = 'ArchivedSummaryMissingError';
  constructor(taskId: string) {
    super(`The summarizer returned no text for the archived summary (task "${taskId}"); nothing was archived. Try again or pick another summarizer.`);
  }
}

/** Id of the summary task the plan asks for (one archive per run). */
export const ARCHIVE_TASK_ID = 'archive';

function limitsOf(options: LayeredOptions): CompressionLimits {
  return {
    readMaxLines: options.readMaxLines,
    grepMaxLines: options.grepMaxLines,
    listMaxItems: options.listMaxItems,
    snippetMaxLines: options.snippetMaxLines,
    stderrTailLines: options.stderrTailLines,
  };
}

const FORMAT = new Intl.NumberFormat('en-US');
const fmt = (n: number) => FORMAT.format(n);

/** The text of an archived summary entry when it is its one block (as `archiveEntry` makes it). */
function textOfArchive(entry: Entry): string | undefined {
  const block = entry.blocks[0];
  return entry.blocks.length === 1 && block?.type === 'text' ? block.text : undefined;
}

/** Index of the first entry a previous run did not archive (its `firstKeptEntryId`). */
function archivedPrefixEnd(input: CompactionInput): { start: number; note?: string } {
  const id = input.previous?.firstKeptEntryId;
  if (id === undefined) return { start: 0 };
  const start = input.entries.findIndex((entry) => entry.id === id);
  if (start >= 0) return { start };
  return { start: 0, note: `The previous compaction kept entries from ${id}, which is not on this branch: its summaries are still appended, but no entry is treated as already archived.` };
}

/** Kept conversation entries pull in the other half of every tool_use/tool_result pair (L4). */
function keepPairs(fates: Fate[], classes: readonly EntryClass[], partners: ReadonlyMap<number, readonly number[]>): number {
  let pulled = 0;
  const work = fates.flatMap((fate, i) => (fate === 'keep' || fate === 'compress' ? [i] : []));
  while (work.length > 0) {
    const i = work.pop()!;
    for (const j of partners.get(i) ?? []) {
      if (classes[j] === 'conversation' && (fates[j] === 'drop' || fates[j] === 'summarize')) {
        fates[j] = 'keep';
        pulled++;
        work.push(j);
      }
    }
  }
  return pulled;
}

interface ArchiveRange { fromId: string; toId: string; count: number }

function isRange(value: unknown): value is ArchiveRange {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.fromId === 'string' && typeof r.toId === 'string' && typeof r.count === 'number';
}

/** What each earlier summary replaces: recorded in `state.archives`, else the whole archived prefix. */
function previousRanges(input: CompactionInput, start: number): ArchiveRange[] {
  const summaries = input.previous?.summaries ?? [];
  const recorded = input.previous?.state?.archives;
  const prefix = input.entries.slice(0, start).filter((entry) => classify(entry) === 'conversation');
  const fallbackId = input.previous?.firstKeptEntryId ?? '';
  const whole: ArchiveRange = prefix.length > 0
    ? { fromId: prefix[0]!.id, toId: prefix[prefix.length - 1]!.id, count: prefix.length }
    : { fromId: fallbackId, toId: fallbackId, count: 0 };
  return summaries.map((_, k) => {
    const range = Array.isArray(recorded) ? (recorded as unknown[])[k] : undefined;
    return isRange(range) ? range : whole;
  });
}

function summaryTask(plan: Plan): SummaryTask | undefined {
  return plan.summaries.find((task) => task.id === ARCHIVE_TASK_ID);
}

/**
 * The context in the seed's order: L1 system prompts, archived summaries (earlier ones first,
 * verbatim), the new archive, then the kept turns with older tool results compressed.
 * Without `summary` the head is simply gone (the timeout fallback's hard truncation).
 */
function buildContext(input: CompactionInput, plan: Plan, options: LayeredOptions, summary: string | undefined): Omit<CompactedContext, 'truncationApplied' | 'summaryApplied' | 'notes'> & { archived?: ArchiveRange } {
  const { entries } = input;
  const { start } = archivedPrefixEnd(input);
  const cut = plan.cut?.index ?? start;
  const classes = entries.map(classify);
  const calls = callsById(entries);
  const limits = limitsOf(options);
  const out: ContextEntry[] = [];
  const journal = (entry: Entry): ContextEntry => ({ role: entry.role, entry, origin: 'journal' });
  const place = (i: number) => {
    const entry = entries[i]!;
    const fate = plan.fates[i];
    if (fate === 'keep') out.push(journal(entry));
    else if (fate === 'compress') {
      const compressed = compressEntry(entry, calls, limits);
      out.push(compressed ? { role: entry.role, entry: compressed.entry, origin: 'compressed' } : journal(entry));
    }
  };

  for (let i = 0; i < cut; i++) if (classes[i] === 'system') place(i);
  const previousSummaries = input.previous?.summaries ?? [];
  const ranges = previousRanges(input, start);
  previousSummaries.forEach((text, k) => {
    out.push({ role: 'system', entry: archiveEntry(`layered-archive-${k + 1}`, text, entries[start]), origin: 'summary', replaces: ranges[k]! });
  });
  for (let i = 0; i < cut; i++) if (classes[i] === 'archive') place(i);
  const task = summaryTask(plan);
  let range: ArchiveRange | undefined;
  if (summary !== undefined && task) {
    const count = plan.fates.slice(task.from, task.to + 1).filter((fate) => fate === 'summarize').length;
    range = { fromId: entries[task.from]!.id, toId: entries[task.to]!.id, count };
    out.push({ role: 'system', entry: archiveEntry(`layered-archive-${previousSummaries.length + 1}`, summary, entries[task.from]), origin: 'summary', replaces: range });
  }
  for (let i = 0; i < cut; i++) if (classes[i] === 'conversation') place(i);
  for (let i = cut; i < entries.length; i++) place(i);

  // Summaries are counted once per text: each run carries every earlier one again.
  const tokensAfter = out.reduce((sum, item) => {
    const text = item.origin === 'summary' ? textOfArchive(item.entry) : undefined;
    return sum + (text !== undefined ? summaryEntryTokens(text, input.counter) : countEntry(item.entry, input.counter).total);
  }, 0);
  let previous: PreviousCompaction;
  if (plan.nothingToDo || !plan.cut) {
    previous = input.previous ?? { strategy: 'layered', summaries: [] };
  } else {
    const archives: unknown[] = [...ranges];
    if (summary !== undefined && range) archives.push(range);
    const firstKept = entries[cut]?.id;
    previous = {
      strategy: 'layered',
      summaries: summary !== undefined ? [...previousSummaries, summary] : [...previousSummaries],
      ...(firstKept !== undefined ? { firstKeptEntryId: firstKept } : {}),
      state: { archives },
    };
  }
  return { entries: out, tokensAfter, previous, ...(range ? { archived: range } : {}) };
}

export const layeredStrategy: Strategy<LayeredOptions> = {
  id: 'layered',
  label: 'Layered (archived summary)',
  seed: '002_be2100c33498e983.txt',
  description: 'Keeps the last 10 whole turns, archives older turns into a fixed-template system summary, compresses old tool output per tool.',
  options: LAYERED_OPTIONS,
  // L12: the archived part reaches the summarizer as ReAct text with compressed observations.
  serialize: (entries) => serializeReact(entries),

  parse(raw) {
    return parseOptions(LAYERED_OPTIONS, raw) as LayeredOptions;
  },

  trigger(input, options) {
    return layeredTrigger(input, options);
  },

  plan(input, options) {
    const { entries } = input;
    const trigger = layeredTrigger(input, options);
    const notes: string[] = [`Trigger: ${trigger.detail}.`];
    const { start, note } = archivedPrefixEnd(input);
    if (note) notes.push(note);
    const classes = entries.map(classify);
    // pairPartners(entries), kept for the branch as it grows: the plan runs whenever the trigger fires.
    const partners = layeredBranchFacts(entries).partners;
    const starts = turnStarts(entries, start, partners);
    const keep = options.keepTurns;

    let nothingToDo: string | undefined;
    if (trigger.numbers.messages! < options.minMessages) {
      nothingToDo = `Only ${fmt(trigger.numbers.messages!)} messages in history; the layered strategy compacts from ${fmt(options.minMessages)} messages on (minMessages).`;
    } else if (starts.length <= keep) {
      nothingToDo = `Only ${fmt(starts.length)} whole turns ${start > 0 ? 'since the last archive' : 'in history'}; the last ${fmt(keep)} turns are always kept (keepTurns), so there is nothing older to archive.`;
    }
    const cut = nothingToDo ? start : starts[starts.length - keep]!;
    // Archived summaries are appended and never compressed again (§A4, §A5): over a long session
    // they alone can fill the window, and no later run makes them smaller. Said where it explains
    // why a context stays large.
    const archived = (input.previous?.summaries ?? []).reduce((sum, text) => sum + summaryEntryTokens(text, input.counter), 0);
    const archivedNote = archived > 0
      ? ` The ${fmt(input.previous!.summaries.length)} archived summar${input.previous!.summaries.length === 1 ? 'y' : 'ies'} from earlier runs hold ${fmt(archived)} tokens and are never compressed again (§A4).`
      : '';
    if (nothingToDo && archived >= trigger.numbers.threshold! / 2) nothingToDo += archivedNote;

    const pinned = input.pinned ?? new Set<string>();
    const fates: Fate[] = classes.map((cls, i) => {
      if (cls === 'event') return 'drop';
      if (cls !== 'conversation') return 'keep';
      if (i < cut && pinned.has(entries[i]!.id)) return 'keep';
      return i < start ? 'drop' : i < cut ? 'summarize' : 'keep';
    });
    const pulled = keepPairs(fates, classes, partners);

    const compressions: Compression[] = [];
    const current = starts[starts.length - 1];
    if (!nothingToDo && current !== undefined) {
      const calls = callsById(entries);
      const limits = limitsOf(options);
      for (let i = cut; i < current; i++) {
        if (fates[i] !== 'keep' || classes[i] !== 'conversation') continue;
        const compressed = compressEntry(entries[i]!, calls, limits);
        if (!compressed) continue;
        const tokensBefore = input.tokens.countAt(i);
        const tokensAfter = countEntry(compressed.entry, input.counter).total;
        // A tiny observation wrapped in JSON would grow: it stays as it is.
        if (tokensAfter >= tokensBefore) continue;
        fates[i] = 'compress';
        const text = compressed.entry.blocks.flatMap((block) => (block.type === 'tool_result' ? block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [])).join('\n');
        compressions.push({ index: i, text, tokensBefore, tokensAfter, rule: `L3 ${compressed.rules.join('; ')}` });
      }
    }

    const summaries: SummaryTask[] = [];
    const summarized = fates.flatMap((fate, i) => (fate === 'summarize' ? [i] : []));
    if (!nothingToDo && summarized.length > 0) {
      const from = summarized[0]!;
      const to = summarized[summarized.length - 1]!;
      summaries.push({
        id: ARCHIVE_TASK_ID,
        prompt: ARCHIVE_PROMPT_ID,
        from,
        to,
        vars: { start_time: isoTime(entries[from]), cutoff_time: isoTime(entries[to]) },
        maxTokens: options.summaryMaxTokens,
      });
    }

    const previousSummaries = input.previous?.summaries ?? [];
    let tokensAfterEstimate = summaries.length > 0 ? options.summaryMaxTokens : 0;
    for (const text of previousSummaries) tokensAfterEstimate += summaryEntryTokens(text, input.counter);
    const compressedAfter = new Map(compressions.map((c) => [c.index, c.tokensAfter]));
    fates.forEach((fate, i) => {
      if (fate === 'keep') tokensAfterEstimate += input.tokens.countAt(i);
      else if (fate === 'compress') tokensAfterEstimate += compressedAfter.get(i) ?? 0;
    });

    if (nothingToDo) notes.push(nothingToDo);
    else {
      if (!trigger.fire) notes.push('The trigger has not fired: this plan is what compacting on request would do.');
      notes.push(`Cut at ${entries[cut]!.id} (entry ${cut}): the last ${fmt(keep)} of ${fmt(starts.length)} whole turns stay verbatim (keepTurns); the cut never falls inside a turn or a tool_use/tool_result pair.`);
      if (summaries[0]) {
        notes.push(`Archiving ${fmt(summarized.length)} user/assistant/tool messages (${entries[summaries[0].from]!.id} … ${entries[summaries[0].to]!.id}) into one Archived Session Summary, written as a system message.`);
      }
    }
    if (previousSummaries.length > 0) notes.push(`${fmt(previousSummaries.length)} archived summar${previousSummaries.length === 1 ? 'y' : 'ies'} from earlier runs appended verbatim, never compressed again.`);
    const journalArchives = classes.filter((cls) => cls === 'archive').length;
    if (journalArchives > 0) notes.push(`${fmt(journalArchives)} summar${journalArchives === 1 ? 'y' : 'ies'} already in the journal kept as written.`);
    const pinnedKept = entries.filter((entry, i) => i < cut && pinned.has(entry.id) && classes[i] === 'conversation').length;
    if (pinnedKept > 0 || pulled > 0) notes.push(`${fmt(pinnedKept + pulled)} older entries kept outside the archive (pinned, or the other half of a kept tool pair).`);
    if (compressions.length > 0) {
      const before = compressions.reduce((sum, c) => sum + c.tokensBefore, 0);
      const after = compressions.reduce((sum, c) => sum + c.tokensAfter, 0);
      notes.push(`L3: ${fmt(compressions.length)} tool results older than the current turn compressed for history, ${fmt(before)} → ${fmt(after)} tokens; the current turn (from ${entries[current!]!.id}) keeps full observations.`);
    }
    const events = classes.filter((cls) => cls === 'event').length;
    if (events > 0) notes.push(`${fmt(events)} harness events are not model context and are left out.`);
    const threshold = trigger.numbers.threshold!;
    if (!nothingToDo && tokensAfterEstimate >= threshold) {
      notes.push(archived >= threshold / 2
        ? `Over budget: the context is estimated at ${fmt(tokensAfterEstimate)} tokens, still >= the threshold ${fmt(threshold)}, mostly archived summaries.${archivedNote}`
        : `Over budget: the context is estimated at ${fmt(tokensAfterEstimate)} tokens, still >= the threshold ${fmt(threshold)}, because keepTurns ${fmt(keep)} turns are always kept whole; lower keepTurns to go under.`);
    }

    return {
      strategy: 'layered',
      options: { ...options },
      trigger,
      ...(nothingToDo ? {} : { cut: { index: cut, rule: `whole-turn boundary: keep the last ${keep} of ${starts.length} turns (keepTurns)` } }),
      fates,
      summaries,
      compressions,
      tokensBefore: input.tokens.total,
      tokensAfterEstimate,
      notes,
      ...(nothingToDo ? { nothingToDo } : {}),
    };
  },

  assemble(input, plan, summaries, options) {
    const task = summaryTask(plan);
    let summary: string | undefined;
    if (task) {
      const raw = summaries.get(task.id);
      if (raw === undefined || raw.trim() === '') throw new ArchivedSummaryMissingError(task.id);
      summary = frameArchivedSummary(raw, task.vars?.start_time ?? 'unknown', task.vars?.cutoff_time ?? 'unknown');
    }
    const { archived, ...built } = buildContext(input, plan, options, summary);
    const notes: string[] = [];
    if (archived) notes.push(`Archived ${fmt(archived.count)} messages into one Archived Session Summary (system message).`);
    if (plan.nothingToDo) notes.push(plan.nothingToDo);
    return { ...built, truncationApplied: false, summaryApplied: summary !== undefined, notes };
  },

  fallback(input, plan, options, reason) {
    // A missing prompt file is a setup error the user must see, not a summary failure.
    if (plan.nothingToDo || !plan.cut || !summaryTask(plan) || reason.name === 'TemplateError') return undefined;
    const timedOut = reason instanceof SummaryTimeoutError || reason.name === 'SummaryTimeoutError';
    const message = timedOut ? TIMEOUT_MESSAGE : `Summary generation failed (${reason.message}), keeping recent history only.`;
    const { archived: _none, ...built } = buildContext(input, plan, options, undefined);
    const dropped = plan.fates.filter((fate) => fate === 'summarize').length;
    return {
      ...built,
      truncationApplied: true,
      summaryApplied: false,
      notes: [message, `Hard truncation: ${fmt(dropped)} older messages dropped without a summary; the last ${fmt(options.keepTurns)} whole turns kept.`],
    };
  },
};
