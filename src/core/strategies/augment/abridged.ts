/**
 * The abridged history (seed 000 §3.2, §5.3, A5): every user turn before the kept tail as a short
 * structured record — the user's words, the files it modified / created / deleted / viewed and the
 * commands it ran (from the tool calls, A6), and the agent's answer or whether it was interrupted
 * or continues — rendered with the fixed template and collected newest first until the total
 * character limit. Long texts are cut in the middle so both ends stay.
 */
import type { Entry } from '../../journal/entry.ts';
import { toolActions } from '../../compaction/tool-actions.ts';
import { truncateMiddle } from '../../compaction/serialize.ts';
import { branchIndex, type AugmentBranchIndex } from './branch-index.ts';
import { isSystem, opensTurn } from './exchanges.ts';
import { stripHarness } from '../../summarize/harness.ts';
import { renderHandlebars } from './handlebars.ts';
import type { AugmentOptions } from './params.ts';
import { ABRIDGED_EXCHANGE_TEMPLATE } from './templates.ts';

/** One user turn, before the limits are applied (Augment's `cZt` output). */
export interface StructuredExchange {
  userMessage: string;
  filesModified: string[];
  filesCreated: string[];
  filesDeleted: string[];
  filesViewed: string[];
  terminalCommands: string[];
  agentResponse: string;
  wasInterrupted: boolean;
  continues: boolean;
}

export type AbridgedLimits = Pick<
  AugmentOptions,
  | 'totalCharsLimit' | 'userMessageCharsLimit' | 'agentResponseCharsLimit' | 'actionCharsLimit'
  | 'numFilesModifiedLimit' | 'numFilesCreatedLimit' | 'numFilesDeletedLimit' | 'numFilesViewedLimit' | 'numTerminalCommandsLimit'
>;

export interface AbridgedHistory {
  text: string;
  /** Turns rendered (the newest ones). */
  included: number;
  /** Turns available before the cut. */
  available: number;
  /** Sum of the rendered turns' lengths (what the limit is checked against; joins not counted). */
  chars: number;
}

const INTERRUPTED = /^\[Request interrupted/;

function textOf(entry: Entry): string {
  return entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n').trim();
}

function pushUnique(list: string[], value: string | undefined): void {
  if (value !== undefined && value.trim() !== '' && !list.includes(value)) list.push(value);
}

/** The structured record of entries `start..end` (one turn, possibly cut short by the tail). */
export function structureTurn(entries: readonly Entry[], start: number, end: number, continues: boolean): StructuredExchange {
  const out: StructuredExchange = {
    userMessage: '', filesModified: [], filesCreated: [], filesDeleted: [], filesViewed: [], terminalCommands: [],
    agentResponse: '', wasInterrupted: false, continues,
  };
  let lastAssistant: Entry | undefined;
  for (let i = start; i <= end; i++) {
    const entry = entries[i]!;
    if (isSystem(entry)) continue;
    // The person's words only: IDE selections, reminders and command echoes in the message are the harness's.
    if (out.userMessage === '' && opensTurn(entry)) out.userMessage = stripHarness(textOf(entry));
    if (entry.flags?.aborted) out.wasInterrupted = true;
    if (entry.role === 'user' && entry.flags?.injected && INTERRUPTED.test(textOf(entry))) out.wasInterrupted = true;
    if (entry.role !== 'assistant') continue;
    lastAssistant = entry;
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call') continue;
      for (const action of toolActions(block)) {
        switch (action.category) {
          case 'modified': pushUnique(out.filesModified, action.path); break;
          case 'created': pushUnique(out.filesCreated, action.path); break;
          case 'deleted': pushUnique(out.filesDeleted, action.path); break;
          case 'viewed': pushUnique(out.filesViewed, action.path); break;
          case 'command': if (action.command?.trim()) out.terminalCommands.push(action.command); break;
          case 'other': break;
        }
      }
    }
  }
  // The answer is the turn's last assistant message when it is a final one (text, no tool calls);
  // a turn that goes on past the cut has no answer yet.
  if (!continues && lastAssistant && !lastAssistant.blocks.some((block) => block.type === 'tool_call')) out.agentResponse = textOf(lastAssistant);
  return out;
}

/** No words from the user, no actions, no answer, no interruption. */
function isEmptyExchange(exchange: StructuredExchange): boolean {
  return exchange.userMessage.trim() === '' && exchange.agentResponse.trim() === '' && !exchange.wasInterrupted
    && [exchange.filesModified, exchange.filesCreated, exchange.filesDeleted, exchange.filesViewed, exchange.terminalCommands].every((list) => list.length === 0);
}

/** One line, at most `max` characters, both ends kept. */
export function clipInline(text: string, max: number): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  if (line.length <= max) return line;
  const marker = '…';
  const keep = Math.max(0, max - marker.length);
  const head = Math.ceil(keep / 2);
  return line.slice(0, head) + marker + line.slice(line.length - (keep - head));
}

/** Augment's `lZt`: one structured exchange through the limits and the template. */
export function renderExchange(exchange: StructuredExchange, limits: AbridgedLimits): string {
  const list = (items: readonly string[], n: number) => items.slice(0, n).map((item) => clipInline(item, limits.actionCharsLimit));
  const filesModified = list(exchange.filesModified, limits.numFilesModifiedLimit);
  const filesCreated = list(exchange.filesCreated, limits.numFilesCreatedLimit);
  const filesDeleted = list(exchange.filesDeleted, limits.numFilesDeletedLimit);
  const filesViewed = list(exchange.filesViewed, limits.numFilesViewedLimit);
  const terminalCommands = list(exchange.terminalCommands, limits.numTerminalCommandsLimit);
  return renderHandlebars(ABRIDGED_EXCHANGE_TEMPLATE, {
    userMessage: truncateMiddle(exchange.userMessage, limits.userMessageCharsLimit),
    hasActions: [filesModified, filesCreated, filesDeleted, filesViewed, terminalCommands].some((l) => l.length > 0),
    filesModified, filesCreated, filesDeleted, filesViewed, terminalCommands,
    agentResponse: truncateMiddle(exchange.agentResponse, limits.agentResponseCharsLimit),
    wasInterrupted: exchange.wasInterrupted,
    continues: exchange.continues,
  });
}

/** Renders structured exchanges newest first until the next one would pass `totalCharsLimit`. */
export function accumulateAbridged(exchanges: readonly StructuredExchange[], limits: AbridgedLimits): AbridgedHistory {
  const picked: string[] = [];
  let chars = 0;
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const text = renderExchange(exchanges[i]!, limits);
    if (chars + text.length > limits.totalCharsLimit) break;
    picked.push(text);
    chars += text.length;
  }
  return { text: picked.reverse().join('\n'), included: picked.length, available: exchanges.length, chars };
}

/** The structured record of each turn's start entry, with the entries it was read from. */
const structuredByStart = new WeakMap<Entry, { span: Entry[]; continues: boolean; exchange: StructuredExchange }>();

/** `structureTurn`, remembered: a plan re-reads every turn before its cut, and only the newest ones changed. */
function structuredTurn(entries: readonly Entry[], start: number, end: number, continues: boolean): StructuredExchange {
  const first = entries[start]!;
  const known = structuredByStart.get(first);
  if (known && known.continues === continues && known.span.length === end - start + 1 && known.span.every((entry, k) => entry === entries[start + k])) return known.exchange;
  const exchange = structureTurn(entries, start, end, continues);
  structuredByStart.set(first, { span: entries.slice(start, end + 1), continues, exchange });
  return exchange;
}

/**
 * Turns read per branch index, by start: an index only grows and its entries stay the same (or
 * equal in everything a turn is read from), so a turn with the same span is the same record.
 */
const turnsRead = new WeakMap<AugmentBranchIndex, Map<number, { last: number; continues: boolean; exchange: StructuredExchange; empty: boolean }>>();

/**
 * The abridged history of everything before entry `cut` on the branch (summaries are not entries,
 * so they are skipped as in the original); the turn the cut falls into is marked as continuing.
 * Turns are `segmentExchanges`' turns, read from the branch's index.
 */
export function abridgedHistory(entries: readonly Entry[], cut: number, limits: AbridgedLimits): AbridgedHistory {
  const index = branchIndex(entries);
  const turns = index.starts('turn');
  let read = turnsRead.get(index);
  if (!read) turnsRead.set(index, (read = new Map()));
  const structured: StructuredExchange[] = [];
  for (let k = 0; k < turns.count; k++) {
    const start = turns.at(k);
    if (start >= cut) break;
    const end = index.lastNonSystemAt((k + 1 < turns.count ? turns.at(k + 1) : entries.length) - 1);
    const last = Math.min(end, cut - 1);
    const continues = end >= cut;
    let turn = read.get(start);
    if (!turn || turn.last !== last || turn.continues !== continues) {
      const exchange = structuredTurn(entries, start, last, continues);
      turn = { last, continues, exchange, empty: isEmptyExchange(exchange) };
      read.set(start, turn);
    }
    // A run of harness text alone (slash-command echoes before the first prompt) says nothing: no empty <user></user>.
    if (!turn.empty) structured.push(turn.exchange);
  }
  return accumulateAbridged(structured, limits);
}
