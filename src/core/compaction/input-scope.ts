/**
 * Where a replay or a plan starts on a branch, and the sentence that says so. A transcript file
 * keeps its whole history even where the source agent compacted (Claude Code's compact boundary
 * and summary, Codex `compacted`, pi `compaction` entries): by default a replay reads that history
 * from the first entry and leaves those compactions out; "continue from the last recorded
 * compaction" starts where the source agent's model did after it.
 */
import type { Entry } from '../journal/entry.ts';
import { findCalls } from '../replay/calls.ts';

/** Where the input starts: the first entry of the branch, or the last compaction the source agent recorded on it. */
export type ReplayFrom = 'start' | 'last-compaction';

export const REPLAY_FROM: readonly ReplayFrom[] = ['start', 'last-compaction'];

/** Default 'start': the file holds the whole history, and a replay compacts it by its own strategy. */
export const DEFAULT_REPLAY_FROM: ReplayFrom = 'start';

/** What the input of a replay or plan covers, as the page and `--json` state it. */
export interface InputScope {
  /** Where it starts: 'last-compaction' only when asked for and the source recorded one on the branch. */
  from: ReplayFrom;
  /** Entries in the input (model context: messages, branch summaries, the summary it starts at). */
  entries: number;
  /** Model calls replayed from the input. */
  calls: number;
  /** Model calls on the whole branch, from its first entry. */
  branchCalls: number;
  /** Compaction summaries the source agent recorded on the branch. */
  sourceCompactions: number;
  note: string;
}

/** A compaction the source agent recorded (pi's branch summary is not one: it is a message on the branch). */
export function isSourceCompaction(entry: Entry): boolean {
  return entry.kind === 'compaction' && entry.marker?.source !== 'pi.branch_summary';
}

/** Parses a `--from` value or a stored choice; a clear error names the accepted values. */
export function parseReplayFrom(value: string, what = '--from'): ReplayFrom {
  if ((REPLAY_FROM as readonly string[]).includes(value)) return value as ReplayFrom;
  throw new Error(`${what} must be one of ${REPLAY_FROM.join(', ')}; got "${value}"`);
}

export interface ScopeFacts {
  journal: readonly Entry[];
  /** The input, in order. */
  entries: readonly Entry[];
  firstCall: number;
  /** Entries the source agent kept after the summary the input starts at. */
  kept: number;
  requested: ReplayFrom;
  /** Lines of the source's compaction summaries on the branch. */
  compactionLines: number[];
  /** The source summary the input starts at, when it starts at one. */
  startedAt?: Entry | undefined;
  /** The branch's model-context entries, without the source's compactions. */
  branchEntries: readonly Entry[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function inputScope(facts: ScopeFacts): InputScope {
  const calls = findCalls(facts.entries).filter((index) => index >= facts.firstCall).length;
  const branchCalls = findCalls(facts.branchEntries).length;
  const sourceCompactions = facts.compactionLines.length;
  const size = `${plural(facts.entries.length, 'entry', 'entries')}, ${plural(calls, 'call')}`;
  const lines = facts.compactionLines.map((line) => line.toLocaleString('en-US')).join(', ');
  let note: string;
  if (facts.startedAt) {
    const keptFirst = facts.kept > 0 ? facts.entries[1] : undefined;
    const kept = keptFirst
      ? `, the ${plural(facts.kept, 'entry', 'entries')} it kept (from line ${keptFirst.line.toLocaleString('en-US')}, as the agent rebuilt its context: context, not calls)`
      : '';
    note = `From the compaction the source agent recorded at line ${facts.startedAt.line.toLocaleString('en-US')}: its summary${kept}, then what followed (${size}); the ${plural(branchCalls - calls, 'earlier call')} of the branch are not replayed.`;
  } else if (sourceCompactions > 0) {
    note = `From the first entry of the branch (${size}): the source agent's own ${sourceCompactions === 1 ? 'compaction' : 'compactions'} (line ${lines}) ${sourceCompactions === 1 ? 'is' : 'are'} left out, since the history ${sourceCompactions === 1 ? 'it' : 'they'} summarized is read in full${facts.requested === 'last-compaction' ? '' : '; choose "from the last recorded compaction" to continue where its model did'}.`;
  } else {
    note = `From the first entry of the branch (${size})${facts.requested === 'last-compaction' ? ': the source agent recorded no compaction on it' : ''}.`;
  }
  return { from: facts.startedAt ? 'last-compaction' : 'start', entries: facts.entries.length, calls, branchCalls, sourceCompactions, note };
}
