/**
 * Which entries the transcript shows, and how, for the verbosity modes (A12):
 * - default: every entry in full;
 * - compact: tool calls, tool results and intermediate assistant messages one line each, the last
 *   assistant message of each turn in full;
 * - quiet: the user's prompts and the final answer of each turn only.
 */
import type { Entry } from './entry.ts';

export type Verbosity = 'default' | 'compact' | 'quiet';
export const VERBOSITIES: readonly Verbosity[] = ['default', 'compact', 'quiet'];

export interface ViewRow {
  /** Journal index of the entry. */
  index: number;
  display: 'full' | 'line';
}

/** A user entry that starts a turn: the user's own words, not tool results or injected text. */
export function startsTurn(entry: Entry): boolean {
  return entry.role === 'user' && entry.kind === 'message' && !entry.flags?.injected;
}

function hasText(entry: Entry): boolean {
  return entry.blocks.some((block) => block.type === 'text' && block.text.trim().length > 0);
}

/** Rows for the entries at `path` (journal indices in order) under a verbosity mode. */
export function viewRows(entries: readonly Entry[], path: readonly number[], mode: Verbosity): ViewRow[] {
  if (mode === 'default') return path.map((index) => ({ index, display: 'full' }));
  // The final answer of a turn: the last assistant entry with text before the next turn starts.
  const finals = new Set<number>();
  let candidate: number | undefined;
  for (const index of path) {
    const entry = entries[index];
    if (!entry) continue;
    if (startsTurn(entry)) {
      if (candidate !== undefined) finals.add(candidate);
      candidate = undefined;
    } else if (entry.role === 'assistant' && entry.kind === 'message' && hasText(entry)) {
      candidate = index;
    }
  }
  if (candidate !== undefined) finals.add(candidate);

  const rows: ViewRow[] = [];
  for (const index of path) {
    const entry = entries[index];
    if (!entry) continue;
    const isFinal = finals.has(index);
    if (mode === 'quiet') {
      if (startsTurn(entry) || isFinal) rows.push({ index, display: 'full' });
      continue;
    }
    const full = startsTurn(entry) || isFinal || entry.kind === 'compaction' || entry.role === 'system' && entry.kind === 'message';
    rows.push({ index, display: full ? 'full' : 'line' });
  }
  return rows;
}
