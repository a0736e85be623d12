/**
 * The layered strategy (seed 002): L3 history of user / assistant / tool messages is archived in
 * whole turns into one fixed-template summary written as a system message, the last turns are
 * kept whole, older tool observations are compressed by per-tool rules, and summaries from
 * earlier runs are appended, never compressed again. Pure: plan, assemble and fallback only.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import { SummaryTimeoutError } from '../compaction/summarizer.ts';
import type { CompactionInput, Compression, Fate, SummaryTask } from '../compaction/types.ts';
import { ARCHIVE_PROMPT_ID, frameArchivedSummary, isoTime, TIMEOUT_MESSAGE } from './layered/archived-summary.ts';
import { ARCHIVE_TASK_ID, archivedPrefixEnd, buildContext, keptConversation, summaryTask } from './layered/assemble-context.ts';
import {
  archivedEntryTokens, entryTokens, layeredBranchFacts, type LayeredBranchFacts,
} from './layered/branch-facts.ts';
import { compressedEntry } from './layered/compressed-entries.ts';
import { serializeReact } from './layered/react-serialize.ts';
import type { CompressionLimits } from './layered/tool-compression.ts';
import { historyMessages, layeredTrigger } from './layered/trigger.ts';

export { serializeReact, ARCHIVE_TASK_ID };

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

/**
 * Why the archived summaries keep a context large: they are appended and never compressed again
 * (§A4, §A5), so once they alone reach the threshold no run can bring the context under it.
 */
function archivedSummariesNote(count: number, tokens: number, threshold: number): string {
  if (count === 0 || tokens <= 0) return '';
  const what = `The ${fmt(count)} archived summar${count === 1 ? 'y' : 'ies'} from earlier runs`;
  if (tokens < threshold) return ` ${what} hold ${fmt(tokens)} tokens and are never compressed again (§A4).`;
  const over = tokens > threshold ? `${fmt(tokens - threshold)} tokens over the threshold ${fmt(threshold)}` : `exactly the threshold ${fmt(threshold)}`;
  return ` ${what} alone hold ${fmt(tokens)} tokens, ${over}: the seed never compresses them again (§A4, §A5), so no run can bring the context under the threshold; only whole turns older than the last keepTurns are archived.`;
}

/**
 * Whether there is anything to archive, read from the branch's facts in O(log n): the whole turns
 * since the last archive against keepTurns, the history against minMessages. A trigger that fires
 * at every call because §A5's summaries alone pass the threshold gets this answer without a plan.
 */
function nothingToArchive(input: CompactionInput, options: LayeredOptions, facts: LayeredBranchFacts, start: number, messages: number) {
  const keep = options.keepTurns;
  const turns = facts.turns.countFrom(start);
  let nothingToDo: string | undefined;
  if (messages < options.minMessages) {
    nothingToDo = `Only ${fmt(messages)} messages in history; the layered strategy compacts from ${fmt(options.minMessages)} messages on (minMessages).`;
  } else if (turns <= keep) {
    nothingToDo = `Only ${fmt(turns)} whole turns ${start > 0 ? 'since the last archive' : 'in history'}; the last ${fmt(keep)} turns are always kept (keepTurns), so there is nothing older to archive.`;
  }
  const previousSummaries = input.previous?.summaries ?? [];
  const archived = archivedEntryTokens(previousSummaries, input.counter);
  const threshold = options.triggerRatio * options.contextWindow;
  const archivedNote = archivedSummariesNote(previousSummaries.length, archived, threshold);
  if (nothingToDo && archived >= threshold / 2) nothingToDo += archivedNote;
  return { turns, archived, archivedNote, nothingToDo };
}

/**
 * Kept conversation entries pull in the other half of every tool_use/tool_result pair (L4). Only
 * a kept entry with a partner before the cut can pull one in: an entry from the cut on whose pair
 * crosses it, a system prompt or archive before it, a pinned entry, or one pulled in already.
 * `keptBefore` (the pinned entries) gets the pulled ones appended; returns how many were pulled.
 */
function keepPairs(fates: Fate[], facts: LayeredBranchFacts, cut: number, keptBefore: number[]): number {
  const work: number[] = [...keptBefore];
  for (let k = facts.pairs.length - 1; k >= 0; k--) {
    const [call, result] = facts.pairs[k]!;
    if (result < cut) break;
    if (call < cut && fates[result] === 'keep') work.push(result);
  }
  const kept = facts.kept.countBelow(cut);
  for (let k = 0; k < kept; k++) work.push(facts.kept.at(k));
  let pulled = 0;
  while (work.length > 0) {
    const i = work.pop()!;
    for (const j of facts.partners.get(i) ?? []) {
      if (facts.classes[j] === 'conversation' && (fates[j] === 'drop' || fates[j] === 'summarize')) {
        fates[j] = 'keep';
        pulled++;
        keptBefore.push(j);
        work.push(j);
      }
    }
  }
  return pulled;
}

/**
 * Tokens of what the plan keeps verbatim or compressed: every entry from the cut on but harness
 * events, the system prompts and archives before it, the conversation kept before it, with each
 * compressed result at its compressed size.
 */
function keptTokens(input: CompactionInput, facts: LayeredBranchFacts, cut: number, keptBefore: readonly number[], compressions: readonly Compression[]): number {
  const { tokens } = input;
  let total = tokens.range(cut, input.entries.length - 1);
  for (let k = facts.events.countBelow(cut); k < facts.events.length; k++) total -= tokens.countAt(facts.events.at(k));
  const kept = facts.kept.countBelow(cut);
  for (let k = 0; k < kept; k++) total += tokens.countAt(facts.kept.at(k));
  for (const i of keptBefore) total += tokens.countAt(i);
  for (const c of compressions) total += c.tokensAfter - c.tokensBefore;
  return total;
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

  nothingToDo(input, options) {
    const facts = layeredBranchFacts(input.entries);
    return nothingToArchive(input, options, facts, archivedPrefixEnd(input, facts).start, historyMessages(input.entries)).nothingToDo;
  },

  plan(input, options) {
    const { entries } = input;
    const trigger = layeredTrigger(input, options);
    const notes: string[] = [`Trigger: ${trigger.detail}.`];
    const facts = layeredBranchFacts(entries);
    const { start, note } = archivedPrefixEnd(input, facts);
    if (note) notes.push(note);
    const classes = facts.classes;
    const keep = options.keepTurns;
    const { turns, archived, archivedNote, nothingToDo } = nothingToArchive(input, options, facts, start, trigger.numbers.messages!);
    const cut = nothingToDo ? start : facts.turns.nthFrom(start, turns - keep)!;
    const previousSummaries = input.previous?.summaries ?? [];
    const threshold = trigger.numbers.threshold!;

    // Conversation before the last archive stays dropped; after it, archived up to the cut, kept from it.
    const fates: Fate[] = facts.baseFates.slice(0, entries.length);
    for (let i = start; i < entries.length; i++) if (classes[i] === 'conversation') fates[i] = i < cut ? 'summarize' : 'keep';
    // Conversation kept before the cut (pinned, then pulled in as the other half of a kept pair).
    const keptBefore: number[] = [];
    const pinned = input.pinned;
    if (pinned && pinned.size > 0) {
      for (let i = 0; i < cut; i++) {
        if (classes[i] === 'conversation' && pinned.has(entries[i]!.id)) {
          fates[i] = 'keep';
          keptBefore.push(i);
        }
      }
    }
    const pinnedKept = keptBefore.length;
    const pulled = keepPairs(fates, facts, cut, keptBefore);
    keptConversation.set(fates, keptBefore);

    const compressions: Compression[] = [];
    const current = turns > 0 ? facts.turns.nthFrom(start, turns - 1) : undefined;
    if (!nothingToDo && current !== undefined) {
      const limits = limitsOf(options);
      for (let i = cut; i < current; i++) {
        if (fates[i] !== 'keep' || classes[i] !== 'conversation') continue;
        const compressed = compressedEntry(entries[i]!, facts.calls, limits);
        if (!compressed) continue;
        const tokensBefore = input.tokens.countAt(i);
        const tokensAfter = entryTokens(compressed.entry, input.counter);
        // A tiny observation wrapped in JSON would grow: it stays as it is.
        if (tokensAfter >= tokensBefore) continue;
        fates[i] = 'compress';
        const text = compressed.entry.blocks.flatMap((block) => (block.type === 'tool_result' ? block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [])).join('\n');
        compressions.push({ index: i, text, tokensBefore, tokensAfter, rule: `L3 ${compressed.rules.join('; ')}` });
      }
    }

    const summaries: SummaryTask[] = [];
    let from = -1;
    let to = -1;
    let summarized = 0;
    for (let i = start; i < cut; i++) {
      if (fates[i] !== 'summarize') continue;
      if (from < 0) from = i;
      to = i;
      summarized++;
    }
    if (!nothingToDo && summarized > 0) {
      summaries.push({
        id: ARCHIVE_TASK_ID,
        prompt: ARCHIVE_PROMPT_ID,
        from,
        to,
        vars: { start_time: isoTime(entries[from]), cutoff_time: isoTime(entries[to]) },
        maxTokens: options.summaryMaxTokens,
      });
    }

    const tokensAfterEstimate = (summaries.length > 0 ? options.summaryMaxTokens : 0) + archived + keptTokens(input, facts, cut, keptBefore, compressions);

    if (nothingToDo) notes.push(nothingToDo);
    else {
      if (!trigger.fire) notes.push('The trigger has not fired: this plan is what compacting on request would do.');
      notes.push(`Cut at ${entries[cut]!.id} (entry ${cut}): the last ${fmt(keep)} of ${fmt(turns)} whole turns stay verbatim (keepTurns); the cut never falls inside a turn or a tool_use/tool_result pair.`);
      if (summaries[0]) {
        notes.push(`Archiving ${fmt(summarized)} user/assistant/tool messages (${entries[summaries[0].from]!.id} … ${entries[summaries[0].to]!.id}) into one Archived Session Summary, written as a system message.`);
      }
    }
    if (previousSummaries.length > 0) notes.push(`${fmt(previousSummaries.length)} archived summar${previousSummaries.length === 1 ? 'y' : 'ies'} from earlier runs appended verbatim, never compressed again.`);
    const journalArchives = facts.archives;
    if (journalArchives > 0) notes.push(`${fmt(journalArchives)} summar${journalArchives === 1 ? 'y' : 'ies'} already in the journal kept as written.`);
    if (pinnedKept > 0 || pulled > 0) notes.push(`${fmt(pinnedKept + pulled)} older entries kept outside the archive (pinned, or the other half of a kept tool pair).`);
    if (compressions.length > 0) {
      const before = compressions.reduce((sum, c) => sum + c.tokensBefore, 0);
      const after = compressions.reduce((sum, c) => sum + c.tokensAfter, 0);
      notes.push(`L3: ${fmt(compressions.length)} tool results older than the current turn compressed for history, ${fmt(before)} → ${fmt(after)} tokens; the current turn (from ${entries[current!]!.id}) keeps full observations.`);
    }
    const events = facts.events.length;
    if (events > 0) notes.push(`${fmt(events)} harness events are not model context and are left out.`);
    if (!nothingToDo && tokensAfterEstimate >= threshold) {
      notes.push(archived >= threshold / 2
        ? `Over budget: the context is estimated at ${fmt(tokensAfterEstimate)} tokens, still >= the threshold ${fmt(threshold)}, mostly archived summaries.${archivedNote}`
        : `Over budget: the context is estimated at ${fmt(tokensAfterEstimate)} tokens, still >= the threshold ${fmt(threshold)}, because keepTurns ${fmt(keep)} turns are always kept whole; lower keepTurns to go under.`);
    }

    return {
      strategy: 'layered',
      options: { ...options },
      trigger,
      ...(nothingToDo ? {} : { cut: { index: cut, rule: `whole-turn boundary: keep the last ${keep} of ${turns} turns (keepTurns)` } }),
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
    const { archived, ...built } = buildContext(input, plan, limitsOf(options), summary);
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
    const { archived: _none, ...built } = buildContext(input, plan, limitsOf(options), undefined);
    const dropped = plan.fates.filter((fate) => fate === 'summarize').length;
    return {
      ...built,
      truncationApplied: true,
      summaryApplied: false,
      notes: [message, `Hard truncation: ${fmt(dropped)} older messages dropped without a summary; the last ${fmt(options.keepTurns)} whole turns kept.`],
    };
  },
};
