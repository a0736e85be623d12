/**
 * What each iteration holds that folding needs to know (tokens, files touched, errors, phase ends,
 * history queries) and the key moments that are never folded (F9): first success of something
 * that had failed, errors, big state changes, bookmarks (and entries the user pinned).
 */
import { toolActions, type ToolAction } from '../compaction/tool-actions.ts';
import type { Entry, ToolCallBlock } from '../journal/entry.ts';
import { blockText, entryText } from '../journal/entry.ts';
import { clipWords, commandKey, todosFromCall } from '../summarize/extract.ts';
import { isDeclined } from '../summarize/harness.ts';
import type { FoldOptions } from './options.ts';
import type { Iteration, KeyMoment } from './types.ts';

export interface IterationInfo {
  /** Tokens of all entries. */
  tokens: number;
  /** Tokens of system messages (always kept: the static zone). */
  systemTokens: number;
  /** Paths the tool calls touched. */
  files: string[];
  /** Paths whose tool call failed with "not found" (error recall). */
  missing: string[];
  /** User and assistant text, lower-cased, for mentions. */
  text: string;
  errors: number;
  /** Files created, modified or deleted. */
  changed: number;
  /** The model said a phase is complete (or marked every todo done). */
  phaseEnd: boolean;
  /** Queries of `query_history` calls. */
  queries: string[];
}

/** "Phase 1 completed", "moving to the next step", "all tasks done" (the seed's semantic signals). */
export const PHASE_END = /\b(?:(?:phase|step|stage|milestone|part)\s*\d*[^.\n]{0,30}?\b(?:is\s+)?(?:complete|completed|finished|done)\b|moving (?:on )?to (?:the )?next (?:step|phase|stage)|all (?:tasks|steps|todos) (?:are )?(?:complete|completed|done))/i;
const NOT_FOUND = /(not found|no such file|does not exist|enoent|cannot find)/i;
const QUERY_TOOL = /^(query_history|queryhistory)$/i;

function actionKey(action: ToolAction | undefined, name: string): string {
  if (action?.category === 'command') return commandKey(action.command ?? '');
  return `${name.toLowerCase()}\u0000${action?.path ?? ''}`;
}

/** The facts of one iteration; `calls` holds the tool calls seen so far (it is added to). */
export function iterationInfo(entries: readonly Entry[], it: Iteration, counts: ArrayLike<number>, calls: Map<string, ToolCallBlock>): IterationInfo {
  const info: IterationInfo = { tokens: 0, systemTokens: 0, files: [], missing: [], text: '', errors: 0, changed: 0, phaseEnd: false, queries: [] };
  const texts: string[] = [];
  const changed = new Set<string>();
  for (let p = it.from; p <= it.to; p++) {
    const entry = entries[p]!;
    const n = counts[p] ?? 0;
    info.tokens += n;
    if (entry.role === 'system' && entry.kind === 'message') info.systemTokens += n;
    if (entry.kind === 'event' || entry.flags?.sidechain) continue;
    if (entry.flags?.error) info.errors++;
    if (entry.role === 'user' || entry.role === 'assistant') {
      const text = entry.blocks.flatMap((b) => (b.type === 'text' || b.type === 'thinking' ? [b.text] : [])).join('\n');
      texts.push(text);
      if (entry.role === 'assistant' && PHASE_END.test(text)) info.phaseEnd = true;
    }
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        calls.set(block.callId, block);
        for (const action of toolActions(block)) {
          if (action.path && !info.files.includes(action.path)) info.files.push(action.path);
          if (action.path && (action.category === 'modified' || action.category === 'created' || action.category === 'deleted')) changed.add(action.path);
        }
        const todos = todosFromCall(block);
        if (todos && todos.length > 0 && todos.every((todo) => todo.status === 'completed')) info.phaseEnd = true;
        if (QUERY_TOOL.test(block.name) && typeof block.input === 'object' && block.input !== null) {
          const query = (block.input as Record<string, unknown>).query;
          if (typeof query === 'string' && query.trim()) info.queries.push(query.trim());
        }
      } else if (block.type === 'tool_result' && block.isError && !isDeclined(blockText(block))) {
        info.errors++;
        const call = calls.get(block.callId);
        const path = call ? toolActions(call)[0]?.path : undefined;
        const message = entryText({ ...entry, blocks: [block] });
        if (NOT_FOUND.test(message)) {
          if (path) info.missing.push(path);
          for (const match of message.matchAll(/([\w./-]+\.[A-Za-z0-9]{1,8})\b/g)) if (match[1] && !info.missing.includes(match[1])) info.missing.push(match[1]);
        }
      }
    }
  }
  info.changed = changed.size;
  info.text = texts.join('\n').toLowerCase();
  return info;
}

/** What key-moment detection remembers between iterations: actions that failed, tool calls seen. */
export interface MomentState {
  failed: Set<string>;
  calls: Map<string, ToolCallBlock>;
}

export function momentState(): MomentState {
  return { failed: new Set(), calls: new Map() };
}

/** The key moment of one iteration (undefined for none), given what the earlier ones left in `state`. */
export function keyMomentOf(entries: readonly Entry[], it: Iteration, info: IterationInfo, options: Pick<FoldOptions, 'bookmarks' | 'bigStateChange' | 'keyMoments'>, state: MomentState): KeyMoment | undefined {
  const { failed, calls } = state;
  let firstSuccess: string | undefined;
  let pinned = false;
  for (let p = it.from; p <= it.to; p++) {
    const entry = entries[p]!;
    if (entry.flags?.pinned) pinned = true;
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.set(block.callId, block);
      if (block.type !== 'tool_result') continue;
      const call = calls.get(block.callId);
      const action = call ? toolActions(call)[0] : undefined;
      const key = actionKey(action, call?.name ?? block.toolName ?? 'tool');
      // A call the user declined neither failed nor succeeded.
      if (block.isError && isDeclined(blockText(block))) continue;
      if (block.isError) failed.add(key);
      else if (failed.has(key)) {
        failed.delete(key);
        firstSuccess ??= action?.command ?? action?.path ?? call?.name ?? 'tool';
      }
    }
  }
  if (!options.keyMoments) return options.bookmarks.includes(it.index) ? { iteration: it.index, kind: 'bookmark', label: 'bookmark' } : undefined;
  if (options.bookmarks.includes(it.index) || pinned) return { iteration: it.index, kind: 'bookmark', label: pinned ? 'pinned' : 'bookmark' };
  if (info.errors > 0) return { iteration: it.index, kind: 'error', label: `${info.errors} error${info.errors === 1 ? '' : 's'}` };
  if (firstSuccess !== undefined) return { iteration: it.index, kind: 'first-success', label: `first success: ${clipWords(firstSuccess, 60)}` };
  if (info.changed >= options.bigStateChange) return { iteration: it.index, kind: 'state-change', label: `${info.changed} files changed` };
  return undefined;
}
