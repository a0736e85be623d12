/**
 * Scores a replay's retention: at each compaction, the probes read from the entries it took out of
 * the verbatim context are looked for in the context right after; at the end, every such probe is
 * looked for in the final context. Only the latest user request among removed entries is a task probe.
 */
import type { Entry } from '../journal/entry.ts';
import { matchProbe, prepareContext, type NormalizedContext } from '../probes/index.ts';
import { carries, evidenceView, viewText, type EvidenceView, type PartOrigin } from './evidence.ts';
import { PROBE_CATEGORIES, type Probe } from '../probes/types.ts';
import { mayCarry, plainText, type PlainText } from './plain-text-filter.ts';
import type { ProbeOutcome, ProbeScores } from './types.ts';

export function emptyScores(): ProbeScores {
  return Object.fromEntries(PROBE_CATEGORIES.map((category) => [category, { total: 0, kept: 0 }])) as ProbeScores;
}

export function scoreOf(outcomes: readonly ProbeOutcome[]): ProbeScores {
  const scores = emptyScores();
  for (const outcome of outcomes) {
    const score = scores[outcome.probe.category];
    score.total++;
    if (outcome.kept) score.kept++;
  }
  return scores;
}

/** Probes by the id of the entry they were read from; dismissed probes left out. */
export function probesByEntry(probes: readonly Probe[], dismissed: ReadonlySet<string>): Map<string, Probe[]> {
  const byEntry = new Map<string, Probe[]>();
  for (const probe of probes) {
    if (dismissed.has(probe.id)) continue;
    const list = byEntry.get(probe.entryId);
    if (list) list.push(probe);
    else byEntry.set(probe.entryId, [probe]);
  }
  return byEntry;
}

/** The probes of the removed entries: every one but tasks, and the latest task. */
export function probesOf(removedIds: readonly string[], byEntry: ReadonlyMap<string, readonly Probe[]>): Probe[] {
  const found: Probe[] = [];
  let task: Probe | undefined;
  for (const id of removedIds) {
    for (const probe of byEntry.get(id) ?? []) {
      if (probe.category !== 'task') found.push(probe);
      else if (!task || probe.entryIndex > task.entryIndex) task = probe;
    }
  }
  if (task) found.push(task);
  return found.sort((a, b) => a.entryIndex - b.entryIndex || a.id.localeCompare(b.id));
}

/**
 * One entry of a context: a key that names its text (journal id, or the made text), the text, and
 * where it comes from (see evidence.ts: which parts may carry which probes). Without `origin` and
 * `entry` a part counts in full, as any text would.
 */
export interface ContextPart {
  key: string;
  text: () => string;
  origin?: PartOrigin;
  entry?: Entry;
}

/** Characters of normalized parts kept between compactions before the cache starts over. */
const CACHE_CHARS = 20_000_000;

/**
 * Checks probes entry by entry: a probe is kept when one entry of the context carries it. Each
 * entry is normalized once per replay (a compaction's context is mostly the previous one's), so
 * checking costs what changed, not the whole context again; an ASCII entry is first searched as
 * plain lowercased text and normalized only when some probe may be in it (a probe that is gone
 * from the context is looked for in every entry of it).
 */
export class ProbeChecker {
  private readonly cache = new Map<string, NormalizedContext>();
  /** Plain form of each ASCII part, null for a part that is not ASCII (no pre-check). */
  private readonly plain = new Map<string, PlainText | null>();
  private chars = 0;

  /**
   * Which probes a context carries. `at`: how many journal entries the context covers (an error
   * resolved at or after it is still open there); default: all of them.
   */
  check(probes: readonly Probe[], parts: () => Iterable<ContextPart>, at = Number.POSITIVE_INFINITY): ProbeOutcome[] {
    if (probes.length === 0) return [];
    const outcomes: ProbeOutcome[] = probes.map((probe) => ({ probe, kept: false }));
    const list = [...parts()];
    const present = new Set<string>();
    for (const part of list) if (part.origin === 'journal' && part.entry) present.add(part.entry.id);
    let left = outcomes.length;
    for (const part of list) {
      if (left === 0) break;
      for (const outcome of outcomes) {
        if (outcome.kept) continue;
        const probe = outcome.probe;
        const view = evidenceView(probe, part.origin, part.entry);
        if (view === undefined) continue;
        const plain = this.plainOf(part, view);
        // A constraint counts with part of its words: the all-needles pre-check does not apply.
        if (plain !== null && probe.category !== 'constraint' && !mayCarry(probe, plain)) continue;
        const context = this.prepared(part, view);
        const resolvedNow = probe.resolvedAt !== undefined && probe.resolvedAt < at;
        if (!carries(probe, view, part.entry, context, resolvedNow, present)) continue;
        outcome.kept = true;
        left--;
        const span = matchProbe(probe, context).span;
        if (span !== undefined) outcome.span = span;
      }
    }
    return outcomes;
  }

  private viewOf(part: ContextPart, view: EvidenceView): string {
    return viewText(view, part.entry, part.text);
  }

  private plainOf(part: ContextPart, view: EvidenceView): PlainText | null {
    const key = `${part.key}#${view}`;
    let plain = this.plain.get(key);
    if (plain === undefined) {
      plain = plainText(this.viewOf(part, view));
      this.room();
      this.plain.set(key, plain);
      this.chars += plain?.text.length ?? 0;
    }
    return plain;
  }

  private room(): void {
    if (this.chars > CACHE_CHARS) {
      this.cache.clear();
      this.plain.clear();
      this.chars = 0;
    }
  }

  private prepared(part: ContextPart, view: EvidenceView): NormalizedContext {
    const key = `${part.key}#${view}`;
    let context = this.cache.get(key);
    if (!context) {
      context = prepareContext(this.viewOf(part, view));
      this.room();
      this.cache.set(key, context);
      this.chars += context.normalized.length;
    }
    return context;
  }
}
