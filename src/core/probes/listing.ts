/**
 * The probes of a whole session as a flat, printable list: every root conversation's active
 * branch (sidechains excluded), each probe with its category, kind, text, source entry and source
 * line, and for errors the entry that resolved them. One function feeds `cli probes` and the
 * gold-file checks, so what the command prints is what the tests measure.
 */
import type { Entry } from '../journal/entry.ts';
import { pathTo } from '../journal/tree.ts';
import { conversationLeaves } from '../replay/compare.ts';
import { extractProbes } from './extract.ts';
import type { Probe, ProbeCategory } from './types.ts';

/** One probe as the `probes` command prints it. */
export interface ListedProbe {
  /** 1-based root conversation of the file (a file may hold several: OpenAI-chat documents). */
  conversation: number;
  category: ProbeCategory;
  /** artifact: created | modified | deleted | read; error: open | resolved; others: the extractor's finer kind. */
  kind: string;
  text: string;
  entryId: string;
  /** 1-based line of the source file the probe was read from. */
  line: number;
  /** Errors: open or resolved. */
  status?: 'open' | 'resolved';
  /** Resolved errors: the entry (and its line) whose successful run or confirmation resolved it. */
  resolvedBy?: { entryId: string; line: number };
}

/** The branch of every root conversation, in file order: the entries from its root to its last leaf. */
export function conversationBranches(journal: readonly Entry[]): Entry[][] {
  return conversationLeaves(journal).map((leafId) => pathTo(journal, leafId).map((index) => journal[index]!));
}

/** A probe of `branch` as listed (see `ListedProbe`). */
export function listedProbe(probe: Probe, branch: readonly Entry[], conversation: number): ListedProbe {
  const source = branch[probe.entryIndex];
  const resolved = probe.resolvedAt === undefined ? undefined : branch[probe.resolvedAt];
  return {
    conversation,
    category: probe.category,
    kind: probe.kind,
    text: probe.text,
    entryId: probe.entryId,
    line: source?.line ?? 0,
    ...(probe.category === 'error' ? { status: probe.resolvedAt === undefined ? ('open' as const) : ('resolved' as const) } : {}),
    ...(resolved ? { resolvedBy: { entryId: resolved.id, line: resolved.line } } : {}),
  };
}

/** Every probe of every root conversation of a journal, in conversation then entry order. */
export function listProbes(journal: readonly Entry[]): ListedProbe[] {
  return conversationBranches(journal).flatMap((branch, i) => extractProbes(branch).map((probe) => listedProbe(probe, branch, i + 1)));
}
