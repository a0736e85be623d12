/**
 * `extractProbes`: every probe of a journal slice, in entry order, deterministic. Each category
 * lives in its own module (artifacts, constraints, tasks, errors, identifiers, decisions); this one
 * runs them over the entries once and merges their probes.
 */
import type { Entry } from '../journal/entry.ts';
import { artifactProbes, projectRoot } from './artifacts.ts';
import { collectCalls } from './calls.ts';
import { constraintProbes } from './constraints.ts';
import { decisionProbes } from './decisions.ts';
import { errorProbes } from './errors.ts';
import { identifierProbes } from './identifiers.ts';
import { taskProbes } from './tasks.ts';
import { callEffects } from './tools.ts';
import { PROBE_CATEGORIES, type Probe } from './types.ts';

/** Every probe of the entries, sorted by source entry (then category order), ids unique. */
export function extractProbes(entries: readonly Entry[]): Probe[] {
  const calls = collectCalls(entries);
  const paths: string[] = [];
  for (const record of calls) {
    // A read cut off before its result touched nothing (see artifacts.ts), so it says nothing of the root.
    for (const effect of callEffects(record.call)) if (record.result || effect.kind !== 'read') paths.push(effect.path);
  }
  const root = projectRoot(paths);
  const groups = [taskProbes(entries), constraintProbes(entries), artifactProbes(calls, root), errorProbes(calls, root), identifierProbes(entries), decisionProbes(entries)];
  const probes = groups.flat();
  const order = new Map(PROBE_CATEGORIES.map((category, i) => [category, i]));
  // Stable sort: within an entry and category, extraction order is kept.
  probes.sort((a, b) => a.entryIndex - b.entryIndex || order.get(a.category)! - order.get(b.category)!);
  const seen = new Map<string, number>();
  for (const probe of probes) {
    const count = seen.get(probe.id) ?? 0;
    seen.set(probe.id, count + 1);
    if (count > 0) probe.id = `${probe.id}.${count}`;
  }
  return probes;
}
