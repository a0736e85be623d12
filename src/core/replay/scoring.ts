/**
 * Scores a replay's retention: at each compaction, the probes read from the entries it took out of
 * the verbatim context are looked for in the context right after; at the end, every such probe is
 * looked for in the final context. Only the latest user request among removed entries is a task probe.
 */
import { matchProbe, prepareContext, type NormalizedContext } from '../probes/index.ts';
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

/** One entry of a context: a key that names its text (journal id, or the made text) and the text. */
export interface ContextPart {
  key: string;
  text: () => string;
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

  check(probes: readonly Probe[], parts: () => Iterable<ContextPart>): ProbeOutcome[] {
    if (probes.length === 0) return [];
    const outcomes: ProbeOutcome[] = probes.map((probe) => ({ probe, kept: false }));
    let left = outcomes.length;
    for (const part of parts()) {
      if (left === 0) break;
      const plain = this.plainOf(part);
      let context: NormalizedContext | undefined;
      for (const outcome of outcomes) {
        if (outcome.kept) continue;
        if (plain !== null && !mayCarry(outcome.probe, plain)) continue;
        context ??= this.prepared(part);
        const match = matchProbe(outcome.probe, context);
        if (match.kept) {
          outcome.kept = true;
          left--;
          if (match.span !== undefined) outcome.span = match.span;
        }
      }
    }
    return outcomes;
  }

  private plainOf(part: ContextPart): PlainText | null {
    let plain = this.plain.get(part.key);
    if (plain === undefined) {
      plain = plainText(part.text());
      this.room();
      this.plain.set(part.key, plain);
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

  private prepared(part: ContextPart): NormalizedContext {
    let context = this.cache.get(part.key);
    if (!context) {
      context = prepareContext(part.text());
      this.room();
      this.cache.set(part.key, context);
      this.chars += context.normalized.length;
    }
    return context;
  }
}
